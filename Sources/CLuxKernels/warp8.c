// Bilinear affine warp of interleaved 8-bit RGBA with the edges clamped (the stabilised frames of Live Photo movies).
// Positions are worked out as LuxRender's affine row operation does (single precision, from each pixel's absolute
// column), then rounded to 1/256 of a pixel; the four neighbours are blended in 8.8 fixed point, two channels per
// 32-bit word (each 16-bit half holds one channel). The AVX2 loop runs the same arithmetic on eight pixels at a time,
// so both paths agree bit for bit.
#include "CLuxKernels.h"
#include <string.h>

#include "x86.h"

#pragma clang fp contract(off)

// a + (b − a)·f/256, rounded to nearest, on the two channels held in the 16-bit halves of `a` and `b`.
static inline __attribute__((always_inline)) uint32_t lux_warp8_lerp2(uint32_t a, uint32_t b, uint32_t f) {
    uint32_t v = a * (256 - f) + b * f + 0x00800080u;
    return (v >> 8) & 0x00FF00FFu;
}

// A position (in 256ths of a pixel, the half-pixel offset removed) clamped to [−2, limit + 1] pixels — beyond, both
// neighbours are the edge pixel anyway — and rounded to a 256th: after the clamp the value plus 1024.5 is positive,
// so truncation rounds it to nearest (halves up; a value within a float's spacing below a half, which the addition
// rounds, may go up too — at most 1/256 pixel, the same on both paths).
static inline __attribute__((always_inline)) int32_t lux_warp8_fixed(float u, float limit) {
    u = u > -512.0f ? u : -512.0f;
    u = u < limit ? u : limit;
    return (int32_t)(u + 1024.5f) - 1024;
}

static inline __attribute__((always_inline)) ptrdiff_t lux_warp8_clamp(int32_t i, ptrdiff_t n) {
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

static inline __attribute__((always_inline)) void lux_warp8_pixels(const uint8_t *src, ptrdiff_t src_stride,
                                                                   ptrdiff_t width, ptrdiff_t height, uint32_t *out,
                                                                   ptrdiff_t x0, ptrdiff_t x1, float a, float b,
                                                                   float row_x, float row_y) {
    const float limit_x = (float)(width + 1) * 256.0f;
    const float limit_y = (float)(height + 1) * 256.0f;
    const uint32_t m = 0x00FF00FFu;
    for (ptrdiff_t x = x0; x < x1; x++) {
        const float px = (float)x + 0.5f;
        const int32_t fu = lux_warp8_fixed((a * px + row_x - 0.5f) * 256.0f, limit_x);
        const int32_t fv = lux_warp8_fixed((b * px + row_y - 0.5f) * 256.0f, limit_y);
        const int32_t i = fu >> 8;
        const int32_t j = fv >> 8;
        const uint32_t wx = (uint32_t)(fu & 255);
        const uint32_t wy = (uint32_t)(fv & 255);
        const uint8_t *r0 = src + lux_warp8_clamp(j, height) * src_stride;
        const uint8_t *r1 = src + lux_warp8_clamp(j + 1, height) * src_stride;
        const ptrdiff_t i0 = 4 * lux_warp8_clamp(i, width);
        const ptrdiff_t i1 = 4 * lux_warp8_clamp(i + 1, width);
        uint32_t p00, p10, p01, p11;
        memcpy(&p00, r0 + i0, 4);
        memcpy(&p10, r0 + i1, 4);
        memcpy(&p01, r1 + i0, 4);
        memcpy(&p11, r1 + i1, 4);
        const uint32_t even = lux_warp8_lerp2(lux_warp8_lerp2(p00 & m, p10 & m, wx),
                                              lux_warp8_lerp2(p01 & m, p11 & m, wx), wy);
        const uint32_t odd = lux_warp8_lerp2(lux_warp8_lerp2((p00 >> 8) & m, (p10 >> 8) & m, wx),
                                             lux_warp8_lerp2((p01 >> 8) & m, (p11 >> 8) & m, wx), wy);
        out[x] = even | (odd << 8);
    }
}

#if LUX_X86
// a + (b − a)·f/256 on the 16-bit halves of eight words (f replicated in both halves of each word).
__attribute__((target("avx2"))) static inline __m256i lux_warp8_lerp2_avx2(__m256i a, __m256i b, __m256i f) {
    const __m256i v = _mm256_add_epi16(
        _mm256_add_epi16(_mm256_mullo_epi16(a, _mm256_sub_epi16(_mm256_set1_epi16(256), f)), _mm256_mullo_epi16(b, f)),
        _mm256_set1_epi16(0x80));
    return _mm256_srli_epi16(v, 8);
}

__attribute__((target("avx2"))) static void lux_warp8_avx2(const uint8_t *src, ptrdiff_t src_stride, ptrdiff_t width,
                                                           ptrdiff_t height, uint32_t *out, ptrdiff_t out_width,
                                                           float a, float b, float row_x, float row_y) {
    const __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
    const __m256 vrx = _mm256_set1_ps(row_x), vry = _mm256_set1_ps(row_y);
    const __m256 half = _mm256_set1_ps(0.5f), scale = _mm256_set1_ps(256.0f), low = _mm256_set1_ps(-512.0f);
    const __m256 bias = _mm256_set1_ps(1024.5f);
    const __m256 limit_x = _mm256_set1_ps((float)(width + 1) * 256.0f);
    const __m256 limit_y = _mm256_set1_ps((float)(height + 1) * 256.0f);
    const __m256i zero = _mm256_setzero_si256(), k256 = _mm256_set1_epi32(256);
    const __m256i last_pair_x = _mm256_set1_epi32((int)width - 2), last_pair_y = _mm256_set1_epi32((int)height - 2);
    const __m256i stride = _mm256_set1_epi32((int)src_stride), m = _mm256_set1_epi32(0x00FF00FF);
    const __m256i w255 = _mm256_set1_epi32(255), k1024 = _mm256_set1_epi32(1024);
    ptrdiff_t x = 0;
    for (; x + 8 <= out_width; x += 8) {
        const __m256 px = _mm256_add_ps(
            _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32((int)x), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))),
            half);
        __m256 u = _mm256_mul_ps(_mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(va, px), vrx), half), scale);
        __m256 v = _mm256_mul_ps(_mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(vb, px), vry), half), scale);
        // As lux_warp8_fixed: `max`/`min` with the bound second, so a position that is not a number takes the bound.
        u = _mm256_min_ps(_mm256_max_ps(u, low), limit_x);
        v = _mm256_min_ps(_mm256_max_ps(v, low), limit_y);
        const __m256i fu = _mm256_sub_epi32(_mm256_cvttps_epi32(_mm256_add_ps(u, bias)), k1024);
        const __m256i fv = _mm256_sub_epi32(_mm256_cvttps_epi32(_mm256_add_ps(v, bias)), k1024);
        const __m256i i = _mm256_srai_epi32(fu, 8), j = _mm256_srai_epi32(fv, 8);
        const __m256i wx = _mm256_and_si256(fu, w255), wy = _mm256_and_si256(fv, w255);
        // A row's two neighbours are adjacent words: one 64-bit load reads the pair from column clamp(i, 0, width − 2).
        // Beyond an edge the pair's edge pixel is weighed fully (0 or 256), which gives that pixel exactly, as the
        // clamped neighbours do. (Loads, not gathers: the gather instructions were the loop's cost.)
        const __m256i ic = _mm256_max_epi32(_mm256_min_epi32(i, last_pair_x), zero);
        const __m256i jc = _mm256_max_epi32(_mm256_min_epi32(j, last_pair_y), zero);
        const __m256i wxc = _mm256_blendv_epi8(_mm256_blendv_epi8(wx, zero, _mm256_cmpgt_epi32(zero, i)), k256,
                                               _mm256_cmpgt_epi32(i, last_pair_x));
        const __m256i wyc = _mm256_blendv_epi8(_mm256_blendv_epi8(wy, zero, _mm256_cmpgt_epi32(zero, j)), k256,
                                               _mm256_cmpgt_epi32(j, last_pair_y));
        const __m256i fx = _mm256_or_si256(wxc, _mm256_slli_epi32(wxc, 16));
        const __m256i fy = _mm256_or_si256(wyc, _mm256_slli_epi32(wyc, 16));
        int32_t offset[8];
        _mm256_storeu_si256((__m256i *)offset,
                            _mm256_add_epi32(_mm256_mullo_epi32(jc, stride), _mm256_slli_epi32(ic, 2)));
        uint64_t top[8], bottom[8];
        for (int k = 0; k < 8; k++) {
            memcpy(&top[k], src + offset[k], 8);
            memcpy(&bottom[k], src + offset[k] + src_stride, 8);
        }
        // Pairs of pixels 0–3 and 4–7 → the left (0x88) and right (0xDD) neighbours of pixels 0, 1, 4, 5, 2, 3, 6, 7,
        // then in order (0xD8).
        const __m256 t0 = _mm256_loadu_ps((const float *)top), t1 = _mm256_loadu_ps((const float *)(top + 4));
        const __m256 b0 = _mm256_loadu_ps((const float *)bottom), b1 = _mm256_loadu_ps((const float *)(bottom + 4));
        const __m256i p00 = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(t0, t1, 0x88)), 0xD8);
        const __m256i p10 = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(t0, t1, 0xDD)), 0xD8);
        const __m256i p01 = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(b0, b1, 0x88)), 0xD8);
        const __m256i p11 = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(b0, b1, 0xDD)), 0xD8);
        const __m256i even = lux_warp8_lerp2_avx2(
            lux_warp8_lerp2_avx2(_mm256_and_si256(p00, m), _mm256_and_si256(p10, m), fx),
            lux_warp8_lerp2_avx2(_mm256_and_si256(p01, m), _mm256_and_si256(p11, m), fx), fy);
        const __m256i odd = lux_warp8_lerp2_avx2(
            lux_warp8_lerp2_avx2(_mm256_and_si256(_mm256_srli_epi32(p00, 8), m),
                                 _mm256_and_si256(_mm256_srli_epi32(p10, 8), m), fx),
            lux_warp8_lerp2_avx2(_mm256_and_si256(_mm256_srli_epi32(p01, 8), m),
                                 _mm256_and_si256(_mm256_srli_epi32(p11, 8), m), fx),
            fy);
        _mm256_storeu_si256((__m256i *)(out + x), _mm256_or_si256(even, _mm256_slli_epi32(odd, 8)));
    }
    lux_warp8_pixels(src, src_stride, width, height, out, x, out_width, a, b, row_x, row_y);
}
#endif

int lux_warp_rgba8_row(const uint8_t *src, ptrdiff_t src_stride, ptrdiff_t width, ptrdiff_t height, uint8_t *dst,
                       ptrdiff_t out_width, ptrdiff_t y, const double inverse[6]) {
    // Positions in 256ths must stay exact in single precision; the vector loop's byte offsets (32-bit lanes) must fit.
    if (width >= 16000 || height >= 16000 || src_stride * height >= ((ptrdiff_t)1 << 31)) return 0;
    const float a = (float)inverse[0];
    const float b = (float)inverse[1];
    const double cy = (double)y + 0.5;
    const float row_x = (float)(inverse[2] * cy + inverse[4]);
    const float row_y = (float)(inverse[3] * cy + inverse[5]);
    uint32_t *out = (uint32_t *)dst;
    // The vector loop reads pairs of columns and of rows.
    if (width < 2 || height < 2) {
        lux_warp8_pixels(src, src_stride, width, height, out, 0, out_width, a, b, row_x, row_y);
        return 1;
    }
    LUX_DISPATCH(lux_warp8_avx2(src, src_stride, width, height, out, out_width, a, b, row_x, row_y),
                 lux_warp8_pixels(src, src_stride, width, height, out, 0, out_width, a, b, row_x, row_y));
    return 1;
}
