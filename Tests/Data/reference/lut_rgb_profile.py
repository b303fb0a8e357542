#!/usr/bin/env python3
"""Writes a LUT-based RGB input profile (ICC v4, class 'scnr', PCS Lab) with Little CMS 2 through ctypes.

Its A2B0, A2B1 and A2B2 tags are identity curves, a 17x17x17 CLUT and identity curves (lutAtoBType): no colorants and no tone
curves, so only a CLUT-capable engine can use it. The CLUT maps device (r, g, b) to the Lab of the sRGB colour
(g ** 0.8, b, r) -- channels rotated and one brightened -- so a reader that ignores the profile (or treats the
pixels as sRGB) is far off.

With --gray it writes a LUT-based gray input profile instead (colour space 'GRAY', a one-input 33-point CLUT): device
gray v maps to the Lab of the sRGB gray v ** 0.6, so a reader that treats the samples as sRGB gray is far off.

usage: lut_rgb_profile.py [--gray] OUT.icc
"""

import ctypes
import sys

lcms = ctypes.CDLL("liblcms2.so.2")
lcms.cmsCreateProfilePlaceholder.restype = ctypes.c_void_p
lcms.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
lcms.cmsCreateLab4Profile.restype = ctypes.c_void_p
lcms.cmsCreateTransform.restype = ctypes.c_void_p
lcms.cmsCreateTransform.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32,
                                    ctypes.c_uint32, ctypes.c_uint32]
lcms.cmsDoTransform.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsSetProfileVersion.argtypes = [ctypes.c_void_p, ctypes.c_double]
lcms.cmsSetDeviceClass.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsSetColorSpace.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsSetPCS.argtypes = [ctypes.c_void_p, ctypes.c_uint32]
lcms.cmsMLUalloc.restype = ctypes.c_void_p
lcms.cmsMLUsetASCII.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
lcms.cmsWriteTag.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
lcms.cmsD50_XYZ.restype = ctypes.c_void_p
lcms.cmsPipelineAlloc.restype = ctypes.c_void_p
lcms.cmsStageAllocToneCurves.restype = ctypes.c_void_p
lcms.cmsStageAllocToneCurves.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p]
lcms.cmsStageAllocCLut16bit.restype = ctypes.c_void_p
lcms.cmsStageAllocCLut16bit.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32,
                                        ctypes.c_void_p]
lcms.cmsPipelineInsertStage.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
lcms.cmsSaveProfileToFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]


def sig(text):
    return int.from_bytes(text.encode(), "big")


TYPE_RGB_16 = (4 << 16) | (3 << 3) | 2
TYPE_LAB_16 = (10 << 16) | (3 << 3) | 2  # Little CMS's v4 16-bit Lab encoding, as a v4 lutAtoBType holds
to_lab = lcms.cmsCreateTransform(lcms.cmsCreate_sRGBProfile(), TYPE_RGB_16, lcms.cmsCreateLab4Profile(None),
                                 TYPE_LAB_16, 1, 0)

SAMPLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_uint16), ctypes.POINTER(ctypes.c_uint16),
                           ctypes.c_void_p)


GRAY = sys.argv[1] == "--gray"
CHANNELS = 1 if GRAY else 3


@SAMPLER
def sample(inputs, outputs, _cargo):
    if GRAY:
        r = g = b = (inputs[0] / 65535) ** 0.6
        rotated = (r, g, b)
    else:
        r, g, b = (inputs[i] / 65535 for i in range(3))
        rotated = (g ** 0.8, b, r)
    rgb = (ctypes.c_uint16 * 3)(*(round(v * 65535) for v in rotated))
    lab = (ctypes.c_uint16 * 3)()
    lcms.cmsDoTransform(to_lab, rgb, lab, 1)
    for i in range(3):
        outputs[i] = lab[i]
    return 1


profile = lcms.cmsCreateProfilePlaceholder(None)
lcms.cmsSetProfileVersion(profile, 4.3)
lcms.cmsSetDeviceClass(profile, sig("scnr"))
lcms.cmsSetColorSpace(profile, sig("GRAY" if GRAY else "RGB "))
lcms.cmsSetPCS(profile, sig("Lab "))
for tag, text in (("desc", b"Lux test LUT gray" if GRAY else b"Lux test LUT RGB"), ("cprt", b"No copyright, use freely")):
    mlu = lcms.cmsMLUalloc(None, 1)
    lcms.cmsMLUsetASCII(mlu, b"en", b"US", text)
    lcms.cmsWriteTag(profile, sig(tag), mlu)
lcms.cmsWriteTag(profile, sig("wtpt"), lcms.cmsD50_XYZ())
pipeline = lcms.cmsPipelineAlloc(None, CHANNELS, 3)
clut = lcms.cmsStageAllocCLut16bit(None, 33 if GRAY else 17, CHANNELS, 3, None)
if not lcms.cmsStageSampleCLut16bit(ctypes.c_void_p(clut), sample, None, 0):
    sys.exit("sampling the CLUT failed")
lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocToneCurves(None, CHANNELS, None))
lcms.cmsPipelineInsertStage(pipeline, 1, clut)
lcms.cmsPipelineInsertStage(pipeline, 1, lcms.cmsStageAllocToneCurves(None, 3, None))
for intent in range(3):  # perceptual, relative colorimetric, saturation: the same table
    lcms.cmsWriteTag(profile, sig(f"A2B{intent}"), pipeline)
if not lcms.cmsSaveProfileToFile(profile, sys.argv[-1].encode()):
    sys.exit("writing the profile failed")
