#!/usr/bin/env python3
"""Demosaicing CPSNR on a held-out set: photographs outside demosaic_psnr.py's five.

Same protocol as demosaic_psnr.py (imported from beside this file): 8-bit sRGB ground truth scaled to [0, 1], even
size, RGGB mosaic, output clipped to [0, 1], CPSNR over R, G and B with an 8-pixel border excluded. Only the
photographs differ. None was used to design or tune Lux's demosaicers; each comes from a package (or from the
package's own test data):

  retina      scikit-image data/retina.jpg (fundus photograph), 2x area-reduced, centre 512x512
  ihc         scikit-image data/ihc.png (immunohistochemistry micrograph), 512x512
  hubble      scikit-image data/hubble_deep_field.jpg, centre 512x512
  hopper      matplotlib mpl-data/sample_data/grace_hopper.jpg (portrait photograph), 600x512
  minduka     matplotlib mpl-data/sample_data/Minduka_Present_Blue_Pack.png (product photograph), centre 512x512
  iphone6s    Lux's Tests/Data/livephoto/iphone6s_livephoto_train.jpg (iPhone 6s), 4x area-reduced, 2 crops 512x512
  iphone13    Lux's Tests/Data/heic/iphone13pro_portrait_depth.heic (iPhone 13 Pro), 4x reduced, 2 crops 512x512
  iphone8     Lux's Tests/Data/heic/iphone8plus.heic (iPhone 8 Plus), 4x reduced, centre 512x512
  sonya7s3    Lux's Tests/Data/heic/sony_a7s3.hif (Sony A7S III), 4x reduced, centre 512x512

Phone and camera photographs are reduced by 4 (mean of 4x4 blocks of their 8-bit values, rounded) so that JPEG/HEVC
artefacts and demosaicing by the camera itself no longer dominate the fine detail. HEIF stills are decoded with
libvips (through libheif), 10-bit ones converted to 8-bit sRGB by vips.

Usage:
  python demosaic_heldout.py                 # table for bilinear/Malvar/Menon
  python demosaic_heldout.py --dump DIR      # only write DIR/<img>_gt.ppm and DIR/<img>_rggb.pgm
  python demosaic_heldout.py --eval DIR      # also score DIR/<img>_out.ppm
Needs: numpy, scikit-image, matplotlib, colour-demosaicing (pip) and vips with HEIF support (libvips-tools).
"""
import argparse
import functools
import hashlib
import os
import subprocess
import sys
import tempfile

import numpy as np
import skimage
import skimage.io

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import demosaic_psnr as protocol  # noqa: E402

DATA = os.path.dirname(HERE)  # Tests/Data
SIZE = 512


def skimage_file(name):
    return skimage.io.imread(os.path.join(os.path.dirname(skimage.__file__), "data", name))


def matplotlib_file(name):
    import matplotlib.cbook
    return skimage.io.imread(matplotlib.cbook.get_sample_data(name, asfileobj=False))


@functools.lru_cache(maxsize=None)
def reduced(relative, f):
    """A photograph of Lux's test data (JPEG or HEIF), reduced by f, decoded once."""
    return reduce(heif(relative) if relative.startswith("heic/") else
                  skimage.io.imread(os.path.join(DATA, relative)), f)


def heif(relative):
    """A HEIF still as 8-bit sRGB-encoded values (vips converts 10-bit stills), read from vips's binary PPM."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "still.ppm")
        subprocess.run(["vips", "colourspace", os.path.join(DATA, relative), out, "srgb"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out, "rb") as f:
            data = f.read()
    lines = [l for l in data.split(b"\n", 4)[:4] if not l.startswith(b"#")]
    (w, h), maxval = map(int, lines[1].split()), int(lines[2])
    assert lines[0] == b"P6" and maxval == 255, "expected an 8-bit binary PPM"
    return np.frombuffer(data[len(data) - w * h * 3:], dtype=np.uint8).reshape(h, w, 3)


def reduce(img, f):
    """Mean of f x f blocks of the 8-bit values, rounded."""
    h, w = img.shape[0] // f * f, img.shape[1] // f * f
    blocks = img[:h, :w, :3].astype(np.float64).reshape(h // f, f, w // f, f, 3)
    return np.round(blocks.mean(axis=(1, 3))).astype(np.uint8)


def crop(img, cy=0.5, cx=0.5, size=SIZE):
    """A size x size crop centred at the fractions (cy, cx) of the image (smaller images are kept whole)."""
    h, w = img.shape[:2]
    ch, cw = min(size, h), min(size, w)
    y0 = min(max(int(h * cy) - ch // 2, 0), h - ch)
    x0 = min(max(int(w * cx) - cw // 2, 0), w - cw)
    return img[y0:y0 + ch, x0:x0 + cw, :3]


IMAGES = {
    "retina": lambda: crop(reduce(skimage_file("retina.jpg"), 2)),
    "ihc": lambda: crop(skimage_file("ihc.png")),
    "hubble": lambda: crop(skimage_file("hubble_deep_field.jpg")),
    "hopper": lambda: crop(matplotlib_file("grace_hopper.jpg"), size=600),
    "minduka": lambda: crop(matplotlib_file("Minduka_Present_Blue_Pack.png")),
    "iphone6s_a": lambda: crop(reduced("livephoto/iphone6s_livephoto_train.jpg", 4), 0.35, 0.3),
    "iphone6s_b": lambda: crop(reduced("livephoto/iphone6s_livephoto_train.jpg", 4), 0.65, 0.7),
    "iphone13_a": lambda: crop(reduced("heic/iphone13pro_portrait_depth.heic", 4), 0.35, 0.3),
    "iphone13_b": lambda: crop(reduced("heic/iphone13pro_portrait_depth.heic", 4), 0.65, 0.7),
    "iphone8": lambda: crop(reduced("heic/iphone8plus.heic", 4)),
    "sonya7s3": lambda: crop(reduced("heic/sony_a7s3.hif", 4)),
}


def load(name):
    img = IMAGES[name]()
    h, w = img.shape[0] & ~1, img.shape[1] & ~1
    return np.ascontiguousarray(img[:h, :w, :3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", metavar="DIR")
    ap.add_argument("--eval", metavar="DIR")
    args = ap.parse_args()
    if args.dump and not args.eval:
        os.makedirs(args.dump, exist_ok=True)
        for name in IMAGES:
            gt8 = load(name)
            protocol.write_pnm(os.path.join(args.dump, name + "_gt.ppm"), gt8)
            protocol.write_pnm(os.path.join(args.dump, name + "_rggb.pgm"), protocol.mosaic_rggb(gt8))
        return 0
    methods = dict(protocol.METHODS)
    cols = list(methods) + (["eval"] if args.eval else [])
    print("skimage %s, numpy %s, border %d px" % (skimage.__version__, np.__version__, protocol.BORDER))
    print("%-11s %-9s %-12s" % ("image", "size", "sha256[:12]") + "".join("%12s" % c for c in cols))
    sums = {c: [] for c in cols}
    for name in IMAGES:
        gt8 = load(name)
        digest = hashlib.sha256(gt8.tobytes()).hexdigest()[:12]
        gt = gt8.astype(np.float64) / 255.0
        cfa = protocol.mosaic_rggb(gt)
        row = []
        for c in cols:
            if c == "eval":
                out = protocol.read_ppm(os.path.join(args.eval, name + "_out.ppm"))
            else:
                out = methods[c](cfa)
            v = protocol.cpsnr(gt, out)
            sums[c].append(v)
            row.append(v)
        print("%-11s %-9s %-12s" % (name, "%dx%d" % gt8.shape[1::-1], digest) + "".join("%12.2f" % v for v in row))
    print("%-34s" % "mean" + "".join("%12.2f" % np.mean(sums[c]) for c in cols))
    return 0


if __name__ == "__main__":
    sys.exit(main())
