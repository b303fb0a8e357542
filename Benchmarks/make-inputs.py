#!/usr/bin/env python3
"""Makes the inputs of Benchmarks/everyday.sh (issue 25) in a folder (default /tmp/lux-everyday).

- mosaic.tif: a 4032 x 3024 photograph mosaic (four photos of Tests/Data, 2016 x 1512 each, Lanczos-resized by
  Pillow), 8-bit RGB, one strip of the whole image, uncompressed, written by Pillow;
- mosaic.png: the same pixels written by Pillow;
- mosaic.jpg: JPEG q92 written by vips from mosaic.tif;
- P3.icc: a Display P3 profile (Debian ships none), taken from a TIFF `lux convert --color-space p3` writes,
  and sRGB.icc (colord's).

Needs Pillow, vips and exiftool; `lux` (for P3.icc) is found as $LUX or .build/release/lux.

    Benchmarks/make-inputs.py [FOLDER]
"""

import os
import shutil
import subprocess
import sys

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "Tests", "Data")
PHOTOS = [
    "livephoto/iphone6s_livephoto_train.jpg",
    "heic/iphone8plus.heic",
    "heic/iphone13pro_portrait_depth.heic",
    "heic/sony_a7s3.hif",
]


def run(*arguments):
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/lux-everyday"
    os.makedirs(out, exist_ok=True)
    tile = (2016, 1512)
    mosaic = Image.new("RGB", (2 * tile[0], 2 * tile[1]))
    for i, name in enumerate(PHOTOS):
        decoded = os.path.join(out, f"tile{i}.png")
        run("vips", "copy", os.path.join(DATA, name), decoded)  # libheif / libjpeg decode, orientation applied
        photo = Image.open(decoded).convert("RGB")
        # Crop to 4:3 around the centre, then resize to the tile.
        w, h = photo.size
        if w * 3 > h * 4:
            cw, ch = h * 4 // 3, h
        else:
            cw, ch = w, w * 3 // 4
        photo = photo.crop(((w - cw) // 2, (h - ch) // 2, (w - cw) // 2 + cw, (h - ch) // 2 + ch))
        mosaic.paste(photo.resize(tile, Image.LANCZOS), ((i % 2) * tile[0], (i // 2) * tile[1]))
        os.remove(decoded)
    tif = os.path.join(out, "mosaic.tif")
    # One strip of the whole image, as older Pillow releases wrote every uncompressed TIFF.
    mosaic.save(tif, strip_size=mosaic.width * mosaic.height * 3)
    mosaic.save(os.path.join(out, "mosaic.png"))
    run("vips", "copy", tif, os.path.join(out, "mosaic.jpg") + "[Q=92]")
    shutil.copy("/usr/share/color/icc/colord/sRGB.icc", os.path.join(out, "sRGB.icc"))
    lux = os.environ.get("LUX", os.path.join(ROOT, ".build", "release", "lux"))
    p3 = os.path.join(out, "p3-probe.tif")
    run(lux, "convert", os.path.join(DATA, PHOTOS[0]), "-o", p3, "--size", "64x64", "--color-space", "p3",
        "--overwrite")
    with open(os.path.join(out, "P3.icc"), "wb") as f:
        f.write(subprocess.run(["exiftool", "-b", "-ICC_Profile", p3], check=True, capture_output=True).stdout)
    os.remove(p3)
    print(f"wrote {out}/mosaic.tif, mosaic.png, mosaic.jpg, sRGB.icc, P3.icc")


if __name__ == "__main__":
    main()
