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
#include <immintrin.h>

// lux_yuv_code on eight values, as 32-bit codes: max(v, 0) gives 0 for NaN (the second operand), as the scalar does.
__attribute__((target("avx2"))) static inline __m256i lux_yuv_codes8(__m256 v) {
    __m256 c = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(255.0f));
    return _mm256_cvttps_epi32(_mm256_add_ps(c, _mm256_set1_ps(0.5f)));
}

// Eight 32-bit codes (0…255) stored as eight bytes.
__attribute__((target("avx2"))) static inline void lux_yuv_store8(uint8_t *d, __m256i codes) {
    const __m256i low = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i b = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(codes, low), _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1));
    _mm_storel_epi64((__m128i *)d, _mm256_castsi256_si128(b));
}

// Channel `shift` / 8 of eight RGBA pixels as floats.
__attribute__((target("avx2"))) static inline __m256i lux_yuv_channel8(__m256i px, int shift) {
    return _mm256_and_si256(_mm256_srli_epi32(px, shift), _mm256_set1_epi32(0xFF));
}

// lux_chroma_row's horizontal step for non-centred siting, eight output samples (four chroma samples) at a time.
__attribute__((target("avx2"))) static inline size_t lux_chroma_pairs_avx2(const float *c, float *out, size_t pairs) {
    size_t k = 0;
    for (; k + 8 <= pairs; k += 8) {
        __m256 a = _mm256_loadu_ps(c + k);
        __m256 m = _mm256_mul_ps(_mm256_set1_ps(0.5f), _mm256_add_ps(a, _mm256_loadu_ps(c + k + 1)));
        __m256 lo = _mm256_unpacklo_ps(a, m);  // a0 m0 a1 m1 | a4 m4 a5 m5
        __m256 hi = _mm256_unpackhi_ps(a, m);  // a2 m2 a3 m3 | a6 m6 a7 m7
        _mm256_storeu_ps(out + 2 * k, _mm256_permute2f128_ps(lo, hi, 0x20));
        _mm256_storeu_ps(out + 2 * k + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
    }
    return k;
}

__attribute__((target("avx2")))
static void lux_yuv420_rows_to_rgba8_avx2(const uint8_t *luma, size_t luma_stride, const uint8_t *cb,
                                          size_t cb_stride, const uint8_t *cr, size_t cr_stride, size_t width,
                                          size_t height, const float m[6], int centred, uint8_t *dst,
                                          size_t dst_stride, size_t first, size_t rows, float *scratch) {
    size_t chroma_width = (width + 1) / 2;
    size_t chroma_height = (height + 1) / 2;
    float *column = scratch;
    float *u = scratch + chroma_width + 2;
    float *v = u + width;
    const float ys = m[0], yo = m[1], rv = m[2], gu = m[3], gv = m[4], bu = m[5];
    const __m256 vys = _mm256_set1_ps(ys), vyo = _mm256_set1_ps(yo), vrv = _mm256_set1_ps(rv),
                 vgu = _mm256_set1_ps(gu), vgv = _mm256_set1_ps(gv), vbu = _mm256_set1_ps(bu),
                 half = _mm256_set1_ps(128.0f);
    for (size_t y = first; y < first + rows; y++) {
        if (centred) {
            lux_chroma_row(cb, cb_stride, chroma_width, chroma_height, y, centred, column, u, width);
            lux_chroma_row(cr, cr_stride, chroma_width, chroma_height, y, centred, column, v, width);
        } else {
            // lux_chroma_row with its horizontal step in vectors (the same operations on each sample).
            size_t j = y >> 1;
            size_t n = (y & 1) ? (j + 1 < chroma_height ? j + 1 : j) : (j > 0 ? j - 1 : 0);
            const uint8_t *planes[2] = {cb + j * cb_stride, cr + j * cr_stride};
            const uint8_t *nexts[2] = {cb + n * cb_stride, cr + n * cr_stride};
            float *outs[2] = {u, v};
            for (int p = 0; p < 2; p++) {
                const uint8_t *a = planes[p];
                const uint8_t *b = nexts[p];
                float *c = column + 1;
                size_t k = 0;
                for (; k + 8 <= chroma_width; k += 8) {
                    __m256 fa = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(a + k))));
                    __m256 fb = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(b + k))));
                    _mm256_storeu_ps(c + k, _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0.75f), fa),
                                                          _mm256_mul_ps(_mm256_set1_ps(0.25f), fb)));
                }
                for (; k < chroma_width; k++) c[k] = 0.75f * (float)a[k] + 0.25f * (float)b[k];
                c[-1] = c[0];
                c[chroma_width] = c[chroma_width - 1];
                float *out = outs[p];
                size_t pairs = width / 2;
                for (size_t k = lux_chroma_pairs_avx2(c, out, pairs); k < pairs; k++) {
                    out[2 * k] = c[k];
                    out[2 * k + 1] = 0.5f * (c[k] + c[k + 1]);
                }
                if (width & 1) out[width - 1] = c[chroma_width - 1];
            }
        }
        const uint8_t *l = luma + y * luma_stride;
        uint8_t *d = dst + y * dst_stride;
        size_t x = 0;
        for (; x + 8 <= width; x += 8) {
            __m256 lum = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(l + x))));
            __m256 yy = _mm256_mul_ps(vys, _mm256_sub_ps(lum, vyo));
            __m256 cu = _mm256_sub_ps(_mm256_loadu_ps(u + x), half);
            __m256 cv = _mm256_sub_ps(_mm256_loadu_ps(v + x), half);
            __m256i r = lux_yuv_codes8(_mm256_add_ps(yy, _mm256_mul_ps(vrv, cv)));
            __m256i g = lux_yuv_codes8(_mm256_sub_ps(_mm256_sub_ps(yy, _mm256_mul_ps(vgu, cu)), _mm256_mul_ps(vgv, cv)));
            __m256i b = lux_yuv_codes8(_mm256_add_ps(yy, _mm256_mul_ps(vbu, cu)));
            __m256i px = _mm256_or_si256(_mm256_or_si256(r, _mm256_slli_epi32(g, 8)),
                                         _mm256_or_si256(_mm256_slli_epi32(b, 16), _mm256_set1_epi32((int)0xFF000000u)));
            _mm256_storeu_si256((__m256i *)(d + 4 * x), px);
        }
        for (; x < width; x++) {
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

// Eight luma codes of a row of RGBA pixels.
__attribute__((target("avx2"))) static inline void lux_luma8(const uint8_t *s, uint8_t *l, __m256 yr, __m256 yg,
                                                              __m256 yb, __m256 yo) {
    __m256i px = _mm256_loadu_si256((const __m256i *)s);
    __m256 r = _mm256_cvtepi32_ps(lux_yuv_channel8(px, 0));
    __m256 g = _mm256_cvtepi32_ps(lux_yuv_channel8(px, 8));
    __m256 b = _mm256_cvtepi32_ps(lux_yuv_channel8(px, 16));
    __m256 v = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(yo, _mm256_mul_ps(yr, r)), _mm256_mul_ps(yg, g)),
                             _mm256_mul_ps(yb, b));
    lux_yuv_store8(l, lux_yuv_codes8(v));
}

// The sums over 2 × 2 blocks of channel `shift` / 8 for sixteen pixels of two rows (eight blocks, in order).
__attribute__((target("avx2"))) static inline __m256 lux_block_sums8(__m256i a0, __m256i a1, __m256i b0, __m256i b1,
                                                                      int shift) {
    __m256i lo = _mm256_add_epi32(lux_yuv_channel8(a0, shift), lux_yuv_channel8(b0, shift));
    __m256i hi = _mm256_add_epi32(lux_yuv_channel8(a1, shift), lux_yuv_channel8(b1, shift));
    // hadd: lo01 lo23 hi01 hi23 | lo45 lo67 hi45 hi67, reordered to the blocks' order.
    return _mm256_cvtepi32_ps(_mm256_permute4x64_epi64(_mm256_hadd_epi32(lo, hi), 0xD8));
}

__attribute__((target("avx2")))
static void lux_rgba8_to_yuv420_avx2(const uint8_t *src, size_t src_stride, size_t width, size_t height,
                                     const float m[12], uint8_t *luma, size_t luma_stride, uint8_t *cb,
                                     size_t cb_stride, uint8_t *cr, size_t cr_stride, size_t first_pair,
                                     size_t pairs) {
    const float yr = m[0], yg = m[1], yb = m[2], yo = m[3], ur = m[4], ug = m[5], ub = m[6], uo = m[7], vr = m[8],
                vg = m[9], vb = m[10], vo = m[11];
    const __m256 vyr = _mm256_set1_ps(yr), vyg = _mm256_set1_ps(yg), vyb = _mm256_set1_ps(yb),
                 vyo = _mm256_set1_ps(yo), vur = _mm256_set1_ps(ur), vug = _mm256_set1_ps(ug),
                 vub = _mm256_set1_ps(ub), vuo = _mm256_set1_ps(uo), vvr = _mm256_set1_ps(vr),
                 vvg = _mm256_set1_ps(vg), vvb = _mm256_set1_ps(vb), vvo = _mm256_set1_ps(vo);
    size_t chroma_width = (width + 1) / 2;
    size_t even = width & ~(size_t)1;
    for (size_t j = first_pair; j < first_pair + pairs; j++) {
        size_t y0 = 2 * j;
        size_t y1 = y0 + 1 < height ? y0 + 1 : y0;
        const uint8_t *s0 = src + y0 * src_stride;
        const uint8_t *s1 = src + y1 * src_stride;
        uint8_t *l0 = luma + y0 * luma_stride;
        uint8_t *l1 = luma + y1 * luma_stride;
        size_t x = 0;
        for (; x + 8 <= width; x += 8) lux_luma8(s0 + 4 * x, l0 + x, vyr, vyg, vyb, vyo);
        for (; x < width; x++) {
            l0[x] = lux_yuv_code(yo + yr * (float)s0[4 * x] + yg * (float)s0[4 * x + 1] + yb * (float)s0[4 * x + 2]);
        }
        if (y1 != y0) {
            for (x = 0; x + 8 <= width; x += 8) lux_luma8(s1 + 4 * x, l1 + x, vyr, vyg, vyb, vyo);
            for (; x < width; x++) {
                l1[x] = lux_yuv_code(yo + yr * (float)s1[4 * x] + yg * (float)s1[4 * x + 1] +
                                     yb * (float)s1[4 * x + 2]);
            }
        }
        uint8_t *u = cb + j * cb_stride;
        uint8_t *v = cr + j * cr_stride;
        size_t k = 0;
        for (; 2 * k + 16 <= even; k += 8) {
            const uint8_t *a = s0 + 8 * k;
            const uint8_t *b = s1 + 8 * k;
            __m256i a0 = _mm256_loadu_si256((const __m256i *)a), a1 = _mm256_loadu_si256((const __m256i *)(a + 32));
            __m256i b0 = _mm256_loadu_si256((const __m256i *)b), b1 = _mm256_loadu_si256((const __m256i *)(b + 32));
            __m256 r = lux_block_sums8(a0, a1, b0, b1, 0);
            __m256 g = lux_block_sums8(a0, a1, b0, b1, 8);
            __m256 bl = lux_block_sums8(a0, a1, b0, b1, 16);
            __m256 cu = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(vuo, _mm256_mul_ps(vur, r)), _mm256_mul_ps(vug, g)),
                                      _mm256_mul_ps(vub, bl));
            __m256 cv = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(vvo, _mm256_mul_ps(vvr, r)), _mm256_mul_ps(vvg, g)),
                                      _mm256_mul_ps(vvb, bl));
            lux_yuv_store8(u + k, lux_yuv_codes8(cu));
            lux_yuv_store8(v + k, lux_yuv_codes8(cv));
        }
        for (; k < even / 2; k++) {
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
