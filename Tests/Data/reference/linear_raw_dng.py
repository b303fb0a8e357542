#!/usr/bin/env python3
"""Writes a Linear Raw DNG (PhotometricInterpretation 34892, three samples per pixel) from a Bayer DNG, with tifffile.

The Bayer DNG's mosaic (its first CFA image, uncompressed, with a 2x2 CFAPattern) is read with tifffile, its
BlackLevel subtracted and divided by WhiteLevel - BlackLevel, and demosaiced bilinearly by colour-demosaicing; the
result, 0...1 camera RGB, is written as 16-bit Linear Raw (BlackLevel 0, WhiteLevel 65535) with the Bayer file's
ColorMatrix1, CalibrationIlluminant1, AsShotNeutral and BaselineExposure copied from it. Nothing of Lux is used.

Usage:
  python linear_raw_dng.py BAYER.dng OUT.dng
"""
import sys

import numpy as np
import tifffile
from colour_demosaicing import demosaicing_CFA_Bayer_bilinear

LAYOUTS = {(0, 1, 1, 2): "RGGB", (1, 0, 2, 1): "GRBG", (1, 2, 0, 1): "GBRG", (2, 1, 1, 0): "BGGR"}


def tag(page, name, count):
    """The tag's `count` values as floats (tifffile gives rationals as flat numerator, denominator pairs)."""
    t = page.tags.get(name)
    if t is None:
        return None
    v = np.asarray(t.value, dtype=np.float64).ravel()
    return v[0::2] / v[1::2] if v.size == 2 * count else v


def main(src, dst):
    with tifffile.TiffFile(src) as f:
        ifd0 = f.pages[0]
        raw = next(p for p in [ifd0] + list(ifd0.pages or []) if p.photometric == 32803)
        mosaic = raw.asarray().astype(np.float64)
        pattern = tuple(bytes(raw.tags["CFAPattern"].value))
        black = tag(raw, "BlackLevel", 1)
        black = 0.0 if black is None else float(np.mean(black))
        white = float(np.max(tag(raw, "WhiteLevel", 1)))
        matrix = tag(ifd0, "ColorMatrix1", 9)
        illuminant = tag(ifd0, "CalibrationIlluminant1", 1)
        illuminant = 21 if illuminant is None else int(illuminant[0])
        neutral = tag(ifd0, "AsShotNeutral", 3)
        baseline = tag(ifd0, "BaselineExposure", 1)
    linear = np.clip((mosaic - black) / (white - black), 0, 1)
    rgb = demosaicing_CFA_Bayer_bilinear(linear, LAYOUTS[pattern])
    pixels = np.round(np.clip(rgb, 0, 1) * 65535).astype(np.uint16)

    def rationals(values):
        out = []
        for v in np.asarray(values, dtype=np.float64).ravel():
            out += [int(round(v * 1000000)), 1000000]
        return out

    tags = [
        (50706, "B", 4, (1, 4, 0, 0), True),  # DNGVersion
        (50708, "s", 0, "Lux Linear Raw test", True),  # UniqueCameraModel
        (50714, "H", 1, 0, True),  # BlackLevel
        (50717, "H", 1, 65535, True),  # WhiteLevel
        (50721, "2i", 9, rationals(matrix), True),  # ColorMatrix1
        (50778, "H", 1, illuminant, True),  # CalibrationIlluminant1
    ]
    if neutral is not None:
        tags.append((50728, "2I", 3, rationals(neutral), True))  # AsShotNeutral
    if baseline is not None:
        tags.append((50730, "2i", 1, rationals(baseline), True))  # BaselineExposure
    tifffile.imwrite(dst, pixels, photometric=34892, planarconfig="contig", extratags=tags)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
