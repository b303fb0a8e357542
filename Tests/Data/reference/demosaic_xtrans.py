#!/usr/bin/env python3
"""X-Trans demosaicing CPSNR: demosaic_psnr.py's protocol with Fujifilm's 6x6 colour filter array.

The ground truth, scaling, clipping and CPSNR (8-pixel border) are demosaic_psnr.py's (imported from beside this
file), on the same five scikit-image photographs cropped to a multiple of 6; only the mosaic differs: the X-Trans
layout at phase (0, 0),

    G G R G G B
    G G B G G R
    B R G R B G
    G G B G G R
    G G R G G B
    R B G B R G

LibRaw's own X-Trans demosaicers are run through rawpy on a 16-bit DNG with that 6x6 CFAPattern written by
tifffile (values * 65535): its linear interpolation (rawpy LINEAR) and Frank Markesteijn's algorithm with 1 pass
(rawpy VNG/PPG/... map to it) and 3 passes (rawpy AHD), all with unit white balance and no colour conversion.

Usage:
  python demosaic_xtrans.py --dump DIR      # only write DIR/<img>_gt.ppm and DIR/<img>_xtrans.pgm
  python demosaic_xtrans.py --eval DIR      # score DIR/<img>_out.ppm (and, with --libraw, LibRaw's methods)
  python demosaic_xtrans.py --libraw        # LibRaw's methods (needs rawpy and tifffile)
"""
import argparse
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import demosaic_psnr as protocol  # noqa: E402

LAYOUT = ["GGRGGB", "GGBGGR", "BRGRBG", "GGBGGR", "GGRGGB", "RBGBRG"]
CHANNEL = {"R": 0, "G": 1, "B": 2}
CFA = np.array([[CHANNEL[c] for c in row] for row in LAYOUT], dtype=np.uint8)


def load(name):
    img = protocol.IMAGES[name]()[..., :3]
    h, w = img.shape[0] // 6 * 6, img.shape[1] // 6 * 6
    return np.ascontiguousarray(img[:h, :w])


def mosaic(rgb):
    h, w = rgb.shape[:2]
    colours = np.tile(CFA, (h // 6, w // 6))
    return np.take_along_axis(rgb, colours[..., None].astype(np.intp), axis=2)[..., 0]


def libraw(cfa01, algorithm):
    """LibRaw's demosaic of the mosaic. LibRaw's X-Trans code refuses images under 512 pixels on a side, so smaller
    mosaics are repeated periodically (whole 6x6 periods, keeping the phase) to at least 516 first, and the result
    is cropped back."""
    import rawpy
    import tifffile

    h, w = cfa01.shape
    big_h, big_w = max(h, 516), max(w, 516)
    cfa01 = np.pad(cfa01, ((0, big_h - h), (0, big_w - w)), mode="wrap")
    cfa16 = np.round(cfa01 * 65535.0).astype(np.uint16)
    srat = []
    for v in protocol.XYZ_TO_SRGB:
        srat += [int(round(v * 10000)), 10000]
    tags = [(254, "I", 1, 0, True),                              # NewSubfileType
            (33421, "H", 2, (6, 6), True),                       # CFARepeatPatternDim
            (33422, "B", 36, tuple(CFA.ravel().tolist()), True),  # CFAPattern
            (50706, "B", 4, (1, 4, 0, 0), True),                 # DNGVersion
            (50708, "s", 0, "synthetic xtrans", True),           # UniqueCameraModel
            (50714, "H", 1, 0, True),                            # BlackLevel
            (50717, "H", 1, 65535, True),                        # WhiteLevel
            (50721, "2i", 9, srat, True),                        # ColorMatrix1
            (50728, "2I", 3, (1,) * 6, True),                    # AsShotNeutral
            (50778, "H", 1, 21, True)]                           # CalibrationIlluminant1
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "xtrans.dng")
        tifffile.imwrite(path, cfa16, photometric=32803, extratags=tags)
        with rawpy.imread(path) as raw:
            assert raw.raw_pattern.shape == (6, 6), "LibRaw did not read the file as X-Trans"
            rgb = raw.postprocess(
                demosaic_algorithm=getattr(rawpy.DemosaicAlgorithm, algorithm),
                output_color=rawpy.ColorSpace.raw, gamma=(1, 1), no_auto_bright=True, user_wb=[1, 1, 1, 1],
                output_bps=16, user_flip=0, user_black=0, user_sat=65535,
                highlight_mode=rawpy.HighlightMode.Ignore)
    return rgb[:h, :w].astype(np.float64) / 65535.0


LIBRAW = {"libraw_linear": "LINEAR", "libraw_markesteijn1": "VNG", "libraw_markesteijn3": "AHD"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", metavar="DIR")
    ap.add_argument("--eval", metavar="DIR")
    ap.add_argument("--libraw", action="store_true")
    args = ap.parse_args()
    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        for name in protocol.IMAGES:
            gt8 = load(name)
            protocol.write_pnm(os.path.join(args.dump, name + "_gt.ppm"), gt8)
            protocol.write_pnm(os.path.join(args.dump, name + "_xtrans.pgm"), mosaic(gt8))
        if not args.eval and not args.libraw:
            return 0
    cols = (list(LIBRAW) if args.libraw else []) + (["eval"] if args.eval else [])
    print("border %d px" % protocol.BORDER)
    print("%-11s %-9s" % ("image", "size") + "".join("%21s" % c for c in cols))
    sums = {c: [] for c in cols}
    for name in protocol.IMAGES:
        gt8 = load(name)
        gt = gt8.astype(np.float64) / 255.0
        cfa = mosaic(gt)
        row = []
        for c in cols:
            out = (protocol.read_ppm(os.path.join(args.eval, name + "_out.ppm")) if c == "eval"
                   else libraw(cfa, LIBRAW[c]))
            v = protocol.cpsnr(gt, out)
            sums[c].append(v)
            row.append(v)
        print("%-11s %-9s" % (name, "%dx%d" % gt8.shape[1::-1]) + "".join("%21.2f" % v for v in row))
    print("%-21s" % "mean" + "".join("%21.2f" % np.mean(sums[c]) for c in cols))
    if args.libraw:
        import rawpy
        print("rawpy %s, LibRaw %s" % (rawpy.__version__, ".".join(map(str, rawpy.libraw_version))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
