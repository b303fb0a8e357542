// 8-bit planar Y′CbCr 4:2:0 (a video decoder's pictures, an encoder's input) <-> 8-bit RGBA, row by row,
// with AVX2 when the CPU has it. Both paths run the same C (the AVX2 one compiled for AVX2), without fused
// operations, so they agree bit for bit.
#include "CLuxKernels.h"
#include "CLuxMediaShims.h"

#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#define LUX_YUV_X86 1
#else
#define LUX_YUV_X86 0
#endif

// Whether the AVX2 loops run: CLuxKernels' detection (checked once; `lux_force_portable` forces the portable loops on
// the calling thread, as for the other kernels).
static int lux_yuv_has_avx2(void) { return LUX_YUV_X86 && lux_has_f16c(); }

#pragma clang fp contract(off)

// round(clamp(v, 0, 255)) as a code (ties away from zero; NaN as 0).
static inline __attribute__((always_inline)) uint8_t lux_yuv_code(float v) {
    float c = v > 0 ? (v < 255.0f ? v : 255.0f) : 0;
    return (uint8_t)(int)(c + 0.5f);
}

// One chroma plane's samples for output row `y`, interpolated vertically between the two nearest chroma rows
// (chroma rows sit midway between luma rows) and then horizontally to `width` samples into `out`. `column` has room
// for `chroma_width` + 2 samples: the row with its edge samples repeated on both sides.
static inline __attribute__((always_inline)) void lux_chroma_row(const uint8_t *plane, size_t stride,
                                                                  size_t chroma_width, size_t chroma_height, size_t y,
                                                                  int centred, float *column, float *out,
                                                                  size_t width) {
    size_t j = y >> 1;
    size_t n = (y & 1) ? (j + 1 < chroma_height ? j + 1 : j) : (j > 0 ? j - 1 : 0);
    const uint8_t *a = plane + j * stride;
    const uint8_t *b = plane + n * stride;
    float *c = column + 1;
    for (size_t k = 0; k < chroma_width; k++) c[k] = 0.75f * (float)a[k] + 0.25f * (float)b[k];
    c[-1] = c[0];
    c[chroma_width] = c[chroma_width - 1];
    size_t pairs = width / 2;
    if (centred) {
        // Each chroma sample sits between its two luma columns: weights 3/4 and 1/4 toward the neighbour.
        for (size_t k = 0; k < pairs; k++) {
            out[2 * k] = 0.75f * c[k] + 0.25f * c[k - 1];
            out[2 * k + 1] = 0.75f * c[k] + 0.25f * c[k + 1];
        }
    } else {
        // Each chroma sample sits on its even luma column (H.264's and HEVC's default): odd columns lie midway.
        for (size_t k = 0; k < pairs; k++) {
            out[2 * k] = c[k];
            out[2 * k + 1] = 0.5f * (c[k] + c[k + 1]);
        }
    }
    if (width & 1) out[width - 1] = c[chroma_width - 1];
}

static inline __attribute__((always_inline)) void lux_yuv420_rows_to_rgba8_body(
    const uint8_t *luma, size_t luma_stride, const uint8_t *cb, size_t cb_stride, const uint8_t *cr, size_t cr_stride,
    size_t width, size_t height, const float m[6], int centred, uint8_t *dst, size_t dst_stride, size_t first,
    size_t rows, float *scratch) {
    size_t chroma_width = (width + 1) / 2;
    size_t chroma_height = (height + 1) / 2;
    float *column = scratch;
    float *u = scratch + chroma_width + 2;
    float *v = u + width;
    const float ys = m[0], yo = m[1], rv = m[2], gu = m[3], gv = m[4], bu = m[5];
    for (size_t y = first; y < first + rows; y++) {
        lux_chroma_row(cb, cb_stride, chroma_width, chroma_height, y, centred, column, u, width);
        lux_chroma_row(cr, cr_stride, chroma_width, chroma_height, y, centred, column, v, width);
        const uint8_t *l = luma + y * luma_stride;
        uint8_t *d = dst + y * dst_stride;
        for (size_t x = 0; x < width; x++) {
            float yy = ys * ((float)l[x] - yo);
            float cu = u[x] - 128.0f;
            float cv = v[x] - 128.0f;
            d[4 * x] = lux_yuv_code(yy + rv * cv);
            d[4 * x + 1] = lux_yuv_code(yy - gu * cu - gv * cv);
            d[4 * x + 2] = lux_yuv_code(yy + bu * cu);
            d[4 * x + 3] = 255;
        }
    }
}

static inline __attribute__((always_inline)) void lux_rgba8_to_yuv420_body(
    const uint8_t *src, size_t src_stride, size_t width, size_t height, const float m[12], uint8_t *luma,
    size_t luma_stride, uint8_t *cb, size_t cb_stride, uint8_t *cr, size_t cr_stride, size_t first_pair,
    size_t pairs) {
    const float yr = m[0], yg = m[1], yb = m[2], yo = m[3], ur = m[4], ug = m[5], ub = m[6], uo = m[7], vr = m[8],
                vg = m[9], vb = m[10], vo = m[11];
    size_t chroma_width = (width + 1) / 2;
    size_t even = width & ~(size_t)1;
    for (size_t j = first_pair; j < first_pair + pairs; j++) {
        size_t y0 = 2 * j;
        size_t y1 = y0 + 1 < height ? y0 + 1 : y0;
        const uint8_t *s0 = src + y0 * src_stride;
        const uint8_t *s1 = src + y1 * src_stride;
        uint8_t *l0 = luma + y0 * luma_stride;
        uint8_t *l1 = luma + y1 * luma_stride;
        for (size_t x = 0; x < width; x++) {
            l0[x] = lux_yuv_code(yo + yr * (float)s0[4 * x] + yg * (float)s0[4 * x + 1] + yb * (float)s0[4 * x + 2]);
        }
        if (y1 != y0) {
            for (size_t x = 0; x < width; x++) {
                l1[x] = lux_yuv_code(yo + yr * (float)s1[4 * x] + yg * (float)s1[4 * x + 1] +
                                     yb * (float)s1[4 * x + 2]);
            }
        }
        // Chroma of each 2 × 2 block's mean colour (sums of four, the matrix rows carry the 1/4).
        uint8_t *u = cb + j * cb_stride;
        uint8_t *v = cr + j * cr_stride;
        for (size_t k = 0; k < even / 2; k++) {
            const uint8_t *a = s0 + 8 * k;
            const uint8_t *b = s1 + 8 * k;
            float r = (float)(a[0] + a[4] + b[0] + b[4]);
            float g = (float)(a[1] + a[5] + b[1] + b[5]);
            float bl = (float)(a[2] + a[6] + b[2] + b[6]);
            u[k] = lux_yuv_code(uo + ur * r + ug * g + ub * bl);
            v[k] = lux_yuv_code(vo + vr * r + vg * g + vb * bl);
        }
        if (width & 1) {
            size_t k = chroma_width - 1;
            const uint8_t *a = s0 + 8 * k;
            const uint8_t *b = s1 + 8 * k;
            float r = (float)(2 * (a[0] + b[0]));
            float g = (float)(2 * (a[1] + b[1]));
            float bl = (float)(2 * (a[2] + b[2]));
            u[k] = lux_yuv_code(uo + ur * r + ug * g + ub * bl);
            v[k] = lux_yuv_code(vo + vr * r + vg * g + vb * bl);
        }
    }
}

#if LUX_YUV_X86
__attribute__((target("avx2")))
static void lux_yuv420_rows_to_rgba8_avx2(const uint8_t *luma, size_t luma_stride, const uint8_t *cb,
                                          size_t cb_stride, const uint8_t *cr, size_t cr_stride, size_t width,
                                          size_t height, const float m[6], int centred, uint8_t *dst,
                                          size_t dst_stride, size_t first, size_t rows, float *scratch) {
    lux_yuv420_rows_to_rgba8_body(luma, luma_stride, cb, cb_stride, cr, cr_stride, width, height, m, centred, dst,
                                  dst_stride, first, rows, scratch);
}

__attribute__((target("avx2")))
static void lux_rgba8_to_yuv420_avx2(const uint8_t *src, size_t src_stride, size_t width, size_t height,
                                     const float m[12], uint8_t *luma, size_t luma_stride, uint8_t *cb,
                                     size_t cb_stride, uint8_t *cr, size_t cr_stride, size_t first_pair,
                                     size_t pairs) {
    lux_rgba8_to_yuv420_body(src, src_stride, width, height, m, luma, luma_stride, cb, cb_stride, cr, cr_stride,
                             first_pair, pairs);
}
#endif

int lux_yuv420_rows_to_rgba8(const uint8_t *luma, size_t luma_stride, const uint8_t *cb, size_t cb_stride,
                             const uint8_t *cr, size_t cr_stride, size_t width, size_t height,
                             const float matrix[6], int centred, uint8_t *dst, size_t dst_stride, size_t first_row,
                             size_t rows) {
    if (width == 0 || first_row + rows > height) return rows == 0 ? 0 : -1;
    float *scratch = malloc(sizeof(float) * ((width + 1) / 2 + 2 + 2 * width));
    if (!scratch) return -1;
#if LUX_YUV_X86
    if (lux_yuv_has_avx2()) {
        lux_yuv420_rows_to_rgba8_avx2(luma, luma_stride, cb, cb_stride, cr, cr_stride, width, height, matrix, centred,
                                      dst, dst_stride, first_row, rows, scratch);
        free(scratch);
        return 0;
    }
#endif
    lux_yuv420_rows_to_rgba8_body(luma, luma_stride, cb, cb_stride, cr, cr_stride, width, height, matrix, centred, dst,
                                  dst_stride, first_row, rows, scratch);
    free(scratch);
    return 0;
}

void lux_rgba8_to_yuv420(const uint8_t *src, size_t src_stride, size_t width, size_t height, const float matrix[12],
                         uint8_t *luma, size_t luma_stride, uint8_t *cb, size_t cb_stride, uint8_t *cr,
                         size_t cr_stride, size_t first_pair, size_t pairs) {
#if LUX_YUV_X86
    if (lux_yuv_has_avx2()) {
        lux_rgba8_to_yuv420_avx2(src, src_stride, width, height, matrix, luma, luma_stride, cb, cb_stride, cr,
                                 cr_stride, first_pair, pairs);
        return;
    }
#endif
    lux_rgba8_to_yuv420_body(src, src_stride, width, height, matrix, luma, luma_stride, cb, cb_stride, cr, cr_stride,
                             first_pair, pairs);
}
