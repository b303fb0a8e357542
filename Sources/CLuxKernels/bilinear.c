// Bilinear samples of a materialised interleaved RGBA float region at continuous positions (LuxRender's affine and
// warp row operations). Both paths run the same C (the AVX2 one compiled for AVX2, where the floors become vector
// rounds), without fused multiply-add, so they agree bit for bit with each other and with the Swift definition
// (LuxRender's Resample.linear).
#include "CLuxKernels.h"
#include <math.h>
#include <string.h>

#include "x86.h"

#pragma clang fp contract(off)

typedef float lux_bl4 __attribute__((vector_size(16)));
typedef float lux_bl8 __attribute__((vector_size(32)));

// Positions per block: the coordinates of a block are worked out first (a loop the compiler vectorises), then its
// pixels are read and blended one by one.
enum { LUX_BILINEAR_BLOCK = 8 };

static inline __attribute__((always_inline)) size_t lux_bilinear_body(const float *base, ptrdiff_t row_stride,
                                                                      ptrdiff_t min_x, ptrdiff_t min_y,
                                                                      ptrdiff_t width, ptrdiff_t height,
                                                                      const float *xs, const float *ys, size_t count,
                                                                      float *out, int32_t *outside) {
    size_t missed = 0;
    for (size_t start = 0; start < count; start += LUX_BILINEAR_BLOCK) {
        size_t m = count - start < LUX_BILINEAR_BLOCK ? count - start : LUX_BILINEAR_BLOCK;
        float ax[LUX_BILINEAR_BLOCK], ay[LUX_BILINEAR_BLOCK], fx[LUX_BILINEAR_BLOCK], fy[LUX_BILINEAR_BLOCK];
        float bx[LUX_BILINEAR_BLOCK], by[LUX_BILINEAR_BLOCK];
        if (m == LUX_BILINEAR_BLOCK) {
            memcpy(bx, xs + start, sizeof bx);
            memcpy(by, ys + start, sizeof by);
        } else {
            // The tail block repeats its last position (its extra results are not used).
            for (size_t k = 0; k < LUX_BILINEAR_BLOCK; k++) {
                bx[k] = xs[start + (k < m ? k : m - 1)];
                by[k] = ys[start + (k < m ? k : m - 1)];
            }
        }
        for (size_t k = 0; k < LUX_BILINEAR_BLOCK; k++) {
            float u = bx[k] - 0.5f;
            float v = by[k] - 0.5f;
            float fu = floorf(u);
            float fv = floorf(v);
            fu = fu > -1e9f ? fu : -1e9f;
            fu = fu < 1e9f ? fu : 1e9f;
            fv = fv > -1e9f ? fv : -1e9f;
            fv = fv < 1e9f ? fv : 1e9f;
            fx[k] = fu;
            fy[k] = fv;
            ax[k] = u - fu;
            ay[k] = v - fv;
        }
        for (size_t k = 0; k < m; k++) {
            size_t i = start + k;
            // (A NaN position was clamped to an edge of ±1e9: outside, left to the caller as any outside one.)
            ptrdiff_t di = (ptrdiff_t)fx[k] - min_x;
            ptrdiff_t dj = (ptrdiff_t)fy[k] - min_y;
            if (!(di >= 0 && di + 1 < width && dj >= 0 && dj + 1 < height)) {
                outside[missed++] = (int32_t)i;
                continue;
            }
            const float *p = base + dj * row_stride + 4 * di;
            lux_bl8 r0, r1;
            memcpy(&r0, p, sizeof r0);               // p00 p10
            memcpy(&r1, p + row_stride, sizeof r1);  // p01 p11
            lux_bl8 left = __builtin_shufflevector(r0, r1, 0, 1, 2, 3, 8, 9, 10, 11);
            lux_bl8 right = __builtin_shufflevector(r0, r1, 4, 5, 6, 7, 12, 13, 14, 15);
            lux_bl8 rows = left + (right - left) * ax[k];  // top | bottom
            lux_bl4 top = __builtin_shufflevector(rows, rows, 0, 1, 2, 3);
            lux_bl4 bottom = __builtin_shufflevector(rows, rows, 4, 5, 6, 7);
            lux_bl4 r = top + (bottom - top) * ay[k];
            memcpy(out + 4 * i, &r, sizeof r);
        }
    }
    return missed;
}

static size_t lux_bilinear_portable(const float *base, ptrdiff_t row_stride, ptrdiff_t min_x, ptrdiff_t min_y,
                                    ptrdiff_t width, ptrdiff_t height, const float *xs, const float *ys, size_t count,
                                    float *out, int32_t *outside) {
    return lux_bilinear_body(base, row_stride, min_x, min_y, width, height, xs, ys, count, out, outside);
}

#if LUX_X86
__attribute__((target("avx2")))
static size_t lux_bilinear_avx2(const float *base, ptrdiff_t row_stride, ptrdiff_t min_x, ptrdiff_t min_y,
                                ptrdiff_t width, ptrdiff_t height, const float *xs, const float *ys, size_t count,
                                float *out, int32_t *outside) {
    return lux_bilinear_body(base, row_stride, min_x, min_y, width, height, xs, ys, count, out, outside);
}
#endif

size_t lux_bilinear_samples(const float *base, ptrdiff_t row_stride, ptrdiff_t min_x, ptrdiff_t min_y,
                            ptrdiff_t width, ptrdiff_t height, const float *xs, const float *ys, size_t count,
                            float *out, int32_t *outside) {
    size_t missed = 0;
    LUX_DISPATCH(missed = lux_bilinear_avx2(base, row_stride, min_x, min_y, width, height, xs, ys, count, out, outside),
                 missed = lux_bilinear_portable(base, row_stride, min_x, min_y, width, height, xs, ys, count, out,
                                                outside));
    return missed;
}
