// 8-bit planar Y′CbCr 4:2:0 (a video decoder's pictures, an encoder's input) <-> 8-bit RGBA, row by row,
// with AVX2 when the CPU has it. The AVX2 loops do eight samples at a time with the portable loops' float operations
// in the same order (no fused operations), and leave what remains of a row to the portable loops, so the two agree
// bit for bit.
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

// The two chroma rows that output row `y` interpolates between (chroma rows sit midway between luma rows): the
// nearest (`*near`) and the next nearest (`*far`).
static inline __attribute__((always_inline)) void lux_chroma_rows(const uint8_t *plane, size_t stride,
                                                                   size_t chroma_height, size_t y,
                                                                   const uint8_t **near, const uint8_t **far) {
    size_t j = y >> 1;
    size_t n = (y & 1) ? (j + 1 < chroma_height ? j + 1 : j) : (j > 0 ? j - 1 : 0);
    *near = plane + j * stride;
    *far = plane + n * stride;
}

// Samples `from`… of the vertically interpolated chroma row `c` (3/4 of the nearest row, 1/4 of the other).
static inline __attribute__((always_inline)) void lux_chroma_vertical(const uint8_t *a, const uint8_t *b, float *c,
                                                                       size_t from, size_t chroma_width) {
    for (size_t k = from; k < chroma_width; k++) c[k] = 0.75f * (float)a[k] + 0.25f * (float)b[k];
}

// Output samples of pairs `from`… of a chroma row (`c[-1]` and `c[chroma_width]` repeat its edge samples) spread
// horizontally to `width` samples into `out`.
static inline __attribute__((always_inline)) void lux_chroma_horizontal(const float *c, float *out, size_t from,
                                                                         size_t chroma_width, size_t width,
                                                                         int centred) {
    size_t pairs = width / 2;
    if (centred) {
        // Each chroma sample sits between its two luma columns: weights 3/4 and 1/4 toward the neighbour.
        for (size_t k = from; k < pairs; k++) {
            out[2 * k] = 0.75f * c[k] + 0.25f * c[k - 1];
            out[2 * k + 1] = 0.75f * c[k] + 0.25f * c[k + 1];
        }
    } else {
        // Each chroma sample sits on its even luma column (H.264's and HEVC's default): odd columns lie midway.
        for (size_t k = from; k < pairs; k++) {
            out[2 * k] = c[k];
            out[2 * k + 1] = 0.5f * (c[k] + c[k + 1]);
        }
    }
    if (width & 1) out[width - 1] = c[chroma_width - 1];
}

// Pixels `from`… of an output row from its luma and its interpolated chroma rows.
static inline __attribute__((always_inline)) void lux_rgba_span(const uint8_t *l, const float *u, const float *v,
                                                                 uint8_t *d, size_t from, size_t width,
                                                                 const float m[6]) {
    const float ys = m[0], yo = m[1], rv = m[2], gu = m[3], gv = m[4], bu = m[5];
    for (size_t x = from; x < width; x++) {
        float yy = ys * ((float)l[x] - yo);
        float cu = u[x] - 128.0f;
        float cv = v[x] - 128.0f;
        d[4 * x] = lux_yuv_code(yy + rv * cv);
        d[4 * x + 1] = lux_yuv_code(yy - gu * cu - gv * cv);
        d[4 * x + 2] = lux_yuv_code(yy + bu * cu);
        d[4 * x + 3] = 255;
    }
}

// Luma codes `from`… of a row of RGBA pixels.
static inline __attribute__((always_inline)) void lux_luma_span(const uint8_t *s, uint8_t *l, size_t from,
                                                                 size_t width, const float m[12]) {
    const float yr = m[0], yg = m[1], yb = m[2], yo = m[3];
    for (size_t x = from; x < width; x++) {
        l[x] = lux_yuv_code(yo + yr * (float)s[4 * x] + yg * (float)s[4 * x + 1] + yb * (float)s[4 * x + 2]);
    }
}

// Chroma codes `from`… of the row pair `s0`, `s1`: each 2 × 2 block's mean colour (sums of four, the matrix rows
// carry the 1/4), the last column repeated at an odd width.
static inline __attribute__((always_inline)) void lux_chroma_span(const uint8_t *s0, const uint8_t *s1, uint8_t *u,
                                                                   uint8_t *v, size_t from, size_t width,
                                                                   const float m[12]) {
    const float ur = m[4], ug = m[5], ub = m[6], uo = m[7], vr = m[8], vg = m[9], vb = m[10], vo = m[11];
    size_t chroma_width = (width + 1) / 2;
    for (size_t k = from; k < chroma_width; k++) {
        const uint8_t *a = s0 + 8 * k;
        const uint8_t *b = s1 + 8 * k;
        // The odd width's last block: its one column counted twice.
        size_t right = 2 * k + 1 < width ? 4 : 0;
        float r = (float)(a[0] + a[right] + b[0] + b[right]);
        float g = (float)(a[1] + a[right + 1] + b[1] + b[right + 1]);
        float bl = (float)(a[2] + a[right + 2] + b[2] + b[right + 2]);
        u[k] = lux_yuv_code(uo + ur * r + ug * g + ub * bl);
        v[k] = lux_yuv_code(vo + vr * r + vg * g + vb * bl);
    }
}

// Where the chroma of a Y′CbCr → RGBA conversion goes: `scratch` holds one interpolated chroma row with its edge
// samples repeated on both sides (`column`, room for `chroma_width` + 2 from `column[-1]`), then the Cb and Cr samples
// of the output row (`outs`, `width` each).
typedef struct {
    const uint8_t *planes[2];
    size_t strides[2];
    size_t chroma_width, chroma_height;
    float *column;
    float *outs[2];
} lux_chroma_layout;

static inline __attribute__((always_inline)) lux_chroma_layout lux_chroma_layout_make(const uint8_t *cb,
                                                                                        size_t cb_stride,
                                                                                        const uint8_t *cr,
                                                                                        size_t cr_stride, size_t width,
                                                                                        size_t height,
                                                                                        float *scratch) {
    size_t chroma_width = (width + 1) / 2;
    float *u = scratch + chroma_width + 2;
    lux_chroma_layout layout = {
        {cb, cr}, {cb_stride, cr_stride}, chroma_width, (height + 1) / 2, scratch + 1, {u, u + width}};
    return layout;
}

static inline __attribute__((always_inline)) void lux_yuv420_rows_to_rgba8_body(
    const uint8_t *luma, size_t luma_stride, const uint8_t *cb, size_t cb_stride, const uint8_t *cr, size_t cr_stride,
    size_t width, size_t height, const float m[6], int centred, uint8_t *dst, size_t dst_stride, size_t first,
    size_t rows, float *scratch) {
    lux_chroma_layout L = lux_chroma_layout_make(cb, cb_stride, cr, cr_stride, width, height, scratch);
    size_t chroma_width = L.chroma_width;
    float *c = L.column, *u = L.outs[0], *v = L.outs[1];
    for (size_t y = first; y < first + rows; y++) {
        for (int p = 0; p < 2; p++) {
            const uint8_t *a, *b;
            lux_chroma_rows(L.planes[p], L.strides[p], L.chroma_height, y, &a, &b);
            lux_chroma_vertical(a, b, c, 0, chroma_width);
            c[-1] = c[0];
            c[chroma_width] = c[chroma_width - 1];
            lux_chroma_horizontal(c, L.outs[p], 0, chroma_width, width, centred);
        }
        lux_rgba_span(luma + y * luma_stride, u, v, dst + y * dst_stride, 0, width, m);
    }
}

static inline __attribute__((always_inline)) void lux_rgba8_to_yuv420_body(
    const uint8_t *src, size_t src_stride, size_t width, size_t height, const float m[12], uint8_t *luma,
    size_t luma_stride, uint8_t *cb, size_t cb_stride, uint8_t *cr, size_t cr_stride, size_t first_pair,
    size_t pairs) {
    for (size_t j = first_pair; j < first_pair + pairs; j++) {
        size_t y0 = 2 * j;
        size_t y1 = y0 + 1 < height ? y0 + 1 : y0;
        const uint8_t *s0 = src + y0 * src_stride;
        const uint8_t *s1 = src + y1 * src_stride;
        lux_luma_span(s0, luma + y0 * luma_stride, 0, width, m);
        if (y1 != y0) lux_luma_span(s1, luma + y1 * luma_stride, 0, width, m);
        lux_chroma_span(s0, s1, cb + j * cb_stride, cr + j * cr_stride, 0, width, m);
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

// Channel `shift` / 8 of eight RGBA pixels, as 32-bit integers.
__attribute__((target("avx2"))) static inline __m256i lux_yuv_channel8(__m256i px, int shift) {
    return _mm256_and_si256(_mm256_srli_epi32(px, shift), _mm256_set1_epi32(0xFF));
}

// Eight bytes as floats.
__attribute__((target("avx2"))) static inline __m256 lux_yuv_floats8(const uint8_t *p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)));
}

// `m + a·x + b·y + c·z` in that order, eight lanes.
__attribute__((target("avx2"))) static inline __m256 lux_yuv_row8(float m, float a, float b, float c, __m256 x,
                                                                   __m256 y, __m256 z) {
    __m256 v = _mm256_add_ps(_mm256_set1_ps(m), _mm256_mul_ps(_mm256_set1_ps(a), x));
    v = _mm256_add_ps(v, _mm256_mul_ps(_mm256_set1_ps(b), y));
    return _mm256_add_ps(v, _mm256_mul_ps(_mm256_set1_ps(c), z));
}

__attribute__((target("avx2")))
static void lux_yuv420_rows_to_rgba8_avx2(const uint8_t *luma, size_t luma_stride, const uint8_t *cb,
                                          size_t cb_stride, const uint8_t *cr, size_t cr_stride, size_t width,
                                          size_t height, const float m[6], int centred, uint8_t *dst,
                                          size_t dst_stride, size_t first, size_t rows, float *scratch) {
    lux_chroma_layout L = lux_chroma_layout_make(cb, cb_stride, cr, cr_stride, width, height, scratch);
    size_t chroma_width = L.chroma_width;
    float *c = L.column, *u = L.outs[0], *v = L.outs[1];
    const __m256 ys = _mm256_set1_ps(m[0]), yo = _mm256_set1_ps(m[1]), rv = _mm256_set1_ps(m[2]),
                 gu = _mm256_set1_ps(m[3]), gv = _mm256_set1_ps(m[4]), bu = _mm256_set1_ps(m[5]),
                 mid = _mm256_set1_ps(128.0f);
    for (size_t y = first; y < first + rows; y++) {
        for (int p = 0; p < 2; p++) {
            const uint8_t *a, *b;
            lux_chroma_rows(L.planes[p], L.strides[p], L.chroma_height, y, &a, &b);
            size_t k = 0;
            for (; k + 8 <= chroma_width; k += 8) {
                _mm256_storeu_ps(c + k, _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0.75f), lux_yuv_floats8(a + k)),
                                                      _mm256_mul_ps(_mm256_set1_ps(0.25f), lux_yuv_floats8(b + k))));
            }
            lux_chroma_vertical(a, b, c, k, chroma_width);
            c[-1] = c[0];
            c[chroma_width] = c[chroma_width - 1];
            float *out = L.outs[p];
            k = 0;
            if (!centred) {
                // Sixteen output samples (eight chroma samples, each with the mean of it and the next, as
                // lux_chroma_horizontal) at a time.
                for (; k + 8 <= width / 2; k += 8) {
                    __m256 s = _mm256_loadu_ps(c + k);
                    __m256 h = _mm256_mul_ps(_mm256_set1_ps(0.5f), _mm256_add_ps(s, _mm256_loadu_ps(c + k + 1)));
                    __m256 lo = _mm256_unpacklo_ps(s, h);  // s0 h0 s1 h1 | s4 h4 s5 h5
                    __m256 hi = _mm256_unpackhi_ps(s, h);  // s2 h2 s3 h3 | s6 h6 s7 h7
                    _mm256_storeu_ps(out + 2 * k, _mm256_permute2f128_ps(lo, hi, 0x20));
                    _mm256_storeu_ps(out + 2 * k + 8, _mm256_permute2f128_ps(lo, hi, 0x31));
                }
            }
            lux_chroma_horizontal(c, out, k, chroma_width, width, centred);
        }
        const uint8_t *l = luma + y * luma_stride;
        uint8_t *d = dst + y * dst_stride;
        size_t x = 0;
        for (; x + 8 <= width; x += 8) {
            __m256 yy = _mm256_mul_ps(ys, _mm256_sub_ps(lux_yuv_floats8(l + x), yo));
            __m256 cu = _mm256_sub_ps(_mm256_loadu_ps(u + x), mid);
            __m256 cv = _mm256_sub_ps(_mm256_loadu_ps(v + x), mid);
            __m256i r = lux_yuv_codes8(_mm256_add_ps(yy, _mm256_mul_ps(rv, cv)));
            __m256i g = lux_yuv_codes8(_mm256_sub_ps(_mm256_sub_ps(yy, _mm256_mul_ps(gu, cu)), _mm256_mul_ps(gv, cv)));
            __m256i b = lux_yuv_codes8(_mm256_add_ps(yy, _mm256_mul_ps(bu, cu)));
            __m256i px = _mm256_or_si256(_mm256_or_si256(r, _mm256_slli_epi32(g, 8)),
                                         _mm256_or_si256(_mm256_slli_epi32(b, 16), _mm256_set1_epi32((int)0xFF000000u)));
            _mm256_storeu_si256((__m256i *)(d + 4 * x), px);
        }
        lux_rgba_span(l, u, v, d, x, width, m);
    }
}

// Luma codes of a row of RGBA pixels, eight at a time, then the rest.
__attribute__((target("avx2"))) static inline void lux_luma_row_avx2(const uint8_t *s, uint8_t *l, size_t width,
                                                                      const float m[12]) {
    size_t x = 0;
    for (; x + 8 <= width; x += 8) {
        __m256i px = _mm256_loadu_si256((const __m256i *)(s + 4 * x));
        __m256 r = _mm256_cvtepi32_ps(lux_yuv_channel8(px, 0));
        __m256 g = _mm256_cvtepi32_ps(lux_yuv_channel8(px, 8));
        __m256 b = _mm256_cvtepi32_ps(lux_yuv_channel8(px, 16));
        lux_yuv_store8(l + x, lux_yuv_codes8(lux_yuv_row8(m[3], m[0], m[1], m[2], r, g, b)));
    }
    lux_luma_span(s, l, x, width, m);
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
    for (size_t j = first_pair; j < first_pair + pairs; j++) {
        size_t y0 = 2 * j;
        size_t y1 = y0 + 1 < height ? y0 + 1 : y0;
        const uint8_t *s0 = src + y0 * src_stride;
        const uint8_t *s1 = src + y1 * src_stride;
        lux_luma_row_avx2(s0, luma + y0 * luma_stride, width, m);
        if (y1 != y0) lux_luma_row_avx2(s1, luma + y1 * luma_stride, width, m);
        uint8_t *u = cb + j * cb_stride;
        uint8_t *v = cr + j * cr_stride;
        size_t k = 0;
        for (; 2 * k + 16 <= width; k += 8) {
            const uint8_t *a = s0 + 8 * k;
            const uint8_t *b = s1 + 8 * k;
            __m256i a0 = _mm256_loadu_si256((const __m256i *)a), a1 = _mm256_loadu_si256((const __m256i *)(a + 32));
            __m256i b0 = _mm256_loadu_si256((const __m256i *)b), b1 = _mm256_loadu_si256((const __m256i *)(b + 32));
            __m256 r = lux_block_sums8(a0, a1, b0, b1, 0);
            __m256 g = lux_block_sums8(a0, a1, b0, b1, 8);
            __m256 bl = lux_block_sums8(a0, a1, b0, b1, 16);
            lux_yuv_store8(u + k, lux_yuv_codes8(lux_yuv_row8(m[7], m[4], m[5], m[6], r, g, bl)));
            lux_yuv_store8(v + k, lux_yuv_codes8(lux_yuv_row8(m[11], m[8], m[9], m[10], r, g, bl)));
        }
        lux_chroma_span(s0, s1, u, v, k, width, m);
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
