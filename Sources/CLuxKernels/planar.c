// Interleaved float and 8-bit RGBA <-> float planes (the render engine's row format), with AVX2 when the CPU has
// it. Both paths compute the same values (no fused operations), so they agree bit for bit.
#include "CLuxKernels.h"
#include <string.h>

#include "x86.h"

#pragma clang fp contract(off)

static void lux_float4_to_planar_portable(const float *src, float *r, float *g, float *b, float *a, size_t n) {
    for (size_t i = 0; i < n; i++) {
        r[i] = src[4 * i];
        g[i] = src[4 * i + 1];
        b[i] = src[4 * i + 2];
        if (a) a[i] = src[4 * i + 3];
    }
}

static void lux_planar_to_float4_portable(const float *r, const float *g, const float *b, const float *a, float *dst, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[4 * i] = r[i];
        dst[4 * i + 1] = g[i];
        dst[4 * i + 2] = b[i];
        dst[4 * i + 3] = a ? a[i] : 1.0f;
    }
}

static const float lux_inverse255 = 1.0f / 255.0f;

static void lux_rgba8_to_planar_portable(const uint8_t *src, float *r, float *g, float *b, float *a, size_t n) {
    for (size_t i = 0; i < n; i++) {
        r[i] = (float)src[4 * i] * lux_inverse255;
        g[i] = (float)src[4 * i + 1] * lux_inverse255;
        b[i] = (float)src[4 * i + 2] * lux_inverse255;
        a[i] = (float)src[4 * i + 3] * lux_inverse255;
    }
}

// Clamps to 0…1 (NaN to 0) and rounds v·max to the nearest integer, ties to even (the 1.5·2²³ trick), for max =
// 255 or 65535 (mask = max).
static inline uint32_t lux_quantize(float v, float max, uint32_t mask) {
    float c = v > 0 ? (v < 1 ? v : 1) : 0;
    float t = c * max + 12582912.0f;
    uint32_t u;
    memcpy(&u, &t, 4);
    return u & mask;
}

static inline uint8_t lux_code8(float v) { return (uint8_t)lux_quantize(v, 255.0f, 0xFF); }

// The index of v in a 65536-entry table over 0…1.
static inline uint32_t lux_index16(float v) { return lux_quantize(v, 65535.0f, 0xFFFF); }

static void lux_planar_to_rgba8_portable(const float *r, const float *g, const float *b, const float *a, uint8_t *dst, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[4 * i] = lux_code8(r[i]);
        dst[4 * i + 1] = lux_code8(g[i]);
        dst[4 * i + 2] = lux_code8(b[i]);
        dst[4 * i + 3] = lux_code8(a[i]);
    }
}

static void lux_planar_to_rgba8_table_portable(const float *r, const float *g, const float *b, const float *a,
                                               const uint8_t *table, uint8_t *dst, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[4 * i] = table[lux_index16(r[i])];
        dst[4 * i + 1] = table[lux_index16(g[i])];
        dst[4 * i + 2] = table[lux_index16(b[i])];
        dst[4 * i + 3] = lux_code8(a[i]);
    }
}

static void lux_float4_to_rgba8_portable(const float *src, uint8_t *dst, size_t n) {
    for (size_t i = 0; i < 4 * n; i++) dst[i] = lux_code8(src[i]);
}

#if LUX_X86
__attribute__((target("avx2")))
static void lux_rgba8_to_planar_avx2(const uint8_t *src, float *r, float *g, float *b, float *a, size_t n) {
    size_t i = 0;
    const __m256i low = _mm256_set1_epi32(0xFF);
    const __m256 k = _mm256_set1_ps(lux_inverse255);
    for (; i + 8 <= n; i += 8) {
        __m256i p = _mm256_loadu_si256((const __m256i *)(src + 4 * i));
        _mm256_storeu_ps(r + i, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(p, low)), k));
        _mm256_storeu_ps(g + i, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(p, 8), low)), k));
        _mm256_storeu_ps(b + i, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(p, 16), low)), k));
        _mm256_storeu_ps(a + i, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(p, 24)), k));
    }
    lux_rgba8_to_planar_portable(src + 4 * i, r + i, g + i, b + i, a + i, n - i);
}

// round(clamp(v, 0, 1) · max), ties to even, for max = 255 or 65535 (the 1.5·2²³ trick, mask = max).
// max(v, 0) gives 0 for NaN and for −0 (the second operand wins), as the portable comparison does.
__attribute__((target("avx2")))
static inline __m256i lux_quantize_avx2(__m256 v, float max, int mask) {
    __m256 c = _mm256_min_ps(_mm256_max_ps(v, _mm256_setzero_ps()), _mm256_set1_ps(1.0f));
    __m256 t = _mm256_add_ps(_mm256_mul_ps(c, _mm256_set1_ps(max)), _mm256_set1_ps(12582912.0f));
    return _mm256_and_si256(_mm256_castps_si256(t), _mm256_set1_epi32(mask));
}

__attribute__((target("avx2")))
static inline __m256i lux_code8_avx2(__m256 v) { return lux_quantize_avx2(v, 255.0f, 0xFF); }

__attribute__((target("avx2")))
static void lux_planar_to_rgba8_avx2(const float *r, const float *g, const float *b, const float *a, uint8_t *dst, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i R = lux_code8_avx2(_mm256_loadu_ps(r + i));
        __m256i G = _mm256_slli_epi32(lux_code8_avx2(_mm256_loadu_ps(g + i)), 8);
        __m256i B = _mm256_slli_epi32(lux_code8_avx2(_mm256_loadu_ps(b + i)), 16);
        __m256i A = _mm256_slli_epi32(lux_code8_avx2(_mm256_loadu_ps(a + i)), 24);
        _mm256_storeu_si256((__m256i *)(dst + 4 * i), _mm256_or_si256(_mm256_or_si256(R, G), _mm256_or_si256(B, A)));
    }
    lux_planar_to_rgba8_portable(r + i, g + i, b + i, a + i, dst + 4 * i, n - i);
}

__attribute__((target("avx2")))
static void lux_planar_to_rgba8_table_avx2(const float *r, const float *g, const float *b, const float *a,
                                           const uint8_t *table, uint8_t *dst, size_t n) {
    // Indices and alpha codes eight at a time; the table reads are scalar (as fast as AVX2 gathers here, and
    // they never read past the table's end).
    uint32_t q[32];
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        _mm256_storeu_si256((__m256i *)q, lux_quantize_avx2(_mm256_loadu_ps(r + i), 65535.0f, 0xFFFF));
        _mm256_storeu_si256((__m256i *)(q + 8), lux_quantize_avx2(_mm256_loadu_ps(g + i), 65535.0f, 0xFFFF));
        _mm256_storeu_si256((__m256i *)(q + 16), lux_quantize_avx2(_mm256_loadu_ps(b + i), 65535.0f, 0xFFFF));
        _mm256_storeu_si256((__m256i *)(q + 24), lux_code8_avx2(_mm256_loadu_ps(a + i)));
        for (int k = 0; k < 8; k++) {
            uint32_t p = (uint32_t)table[q[k]] | (uint32_t)table[q[8 + k]] << 8 | (uint32_t)table[q[16 + k]] << 16 |
                         q[24 + k] << 24;
            memcpy(dst + 4 * (i + k), &p, 4);
        }
    }
    lux_planar_to_rgba8_table_portable(r + i, g + i, b + i, a + i, table, dst + 4 * i, n - i);
}

__attribute__((target("avx2")))
static void lux_float4_to_rgba8_avx2(const float *src, uint8_t *dst, size_t n) {
    // Eight pixels a step: the codes of four 2-pixel vectors narrow with saturating packs (exact for 0…255),
    // which leave pixels 0 2 4 6 in the low lane and 1 3 5 7 in the high one; a permutation restores the order.
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const float *s = src + 4 * i;
        __m256i c0 = lux_code8_avx2(_mm256_loadu_ps(s));
        __m256i c1 = lux_code8_avx2(_mm256_loadu_ps(s + 8));
        __m256i c2 = lux_code8_avx2(_mm256_loadu_ps(s + 16));
        __m256i c3 = lux_code8_avx2(_mm256_loadu_ps(s + 24));
        __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(c0, c1), _mm256_packus_epi32(c2, c3));
        _mm256_storeu_si256((__m256i *)(dst + 4 * i), _mm256_permutevar8x32_epi32(bytes, order));
    }
    lux_float4_to_rgba8_portable(src + 4 * i, dst + 4 * i, n - i);
}

__attribute__((target("avx2")))
static void lux_float4_to_planar_avx2(const float *src, float *r, float *g, float *b, float *a, size_t n) {
    size_t i = 0;
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (; i + 8 <= n; i += 8) {
        const float *s = src + 4 * i;
        __m256 t0 = _mm256_loadu_ps(s);       // px0 | px1
        __m256 t1 = _mm256_loadu_ps(s + 8);   // px2 | px3
        __m256 t2 = _mm256_loadu_ps(s + 16);  // px4 | px5
        __m256 t3 = _mm256_loadu_ps(s + 24);  // px6 | px7
        __m256 u0 = _mm256_unpacklo_ps(t0, t1);  // r0 r2 g0 g2 | r1 r3 g1 g3
        __m256 u1 = _mm256_unpackhi_ps(t0, t1);  // b0 b2 a0 a2 | b1 b3 a1 a3
        __m256 u2 = _mm256_unpacklo_ps(t2, t3);
        __m256 u3 = _mm256_unpackhi_ps(t2, t3);
        _mm256_storeu_ps(r + i, _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u0, u2, 0x44), order));
        _mm256_storeu_ps(g + i, _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u0, u2, 0xEE), order));
        _mm256_storeu_ps(b + i, _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u1, u3, 0x44), order));
        if (a) _mm256_storeu_ps(a + i, _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u1, u3, 0xEE), order));
    }
    lux_float4_to_planar_portable(src + 4 * i, r + i, g + i, b + i, a ? a + i : 0, n - i);
}

__attribute__((target("avx2")))
static void lux_planar_to_float4_avx2(const float *r, const float *g, const float *b, const float *a, float *dst, size_t n) {
    size_t i = 0;
    const __m256 one = _mm256_set1_ps(1.0f);
    for (; i + 8 <= n; i += 8) {
        __m256 R = _mm256_loadu_ps(r + i), G = _mm256_loadu_ps(g + i), B = _mm256_loadu_ps(b + i);
        __m256 A = a ? _mm256_loadu_ps(a + i) : one;
        __m256 p[4];
        lux_interleave8(R, G, B, A, p);
        float *d = dst + 4 * i;
        for (int k = 0; k < 4; k++) _mm256_storeu_ps(d + 8 * k, p[k]);
    }
    lux_planar_to_float4_portable(r + i, g + i, b + i, a ? a + i : 0, dst + 4 * i, n - i);
}
#endif

void lux_float4_to_planar(const float *src, float *r, float *g, float *b, float *a, size_t count) {
    LUX_DISPATCH(lux_float4_to_planar_avx2(src, r, g, b, a, count),
                 lux_float4_to_planar_portable(src, r, g, b, a, count));
}

void lux_planar_to_float4(const float *r, const float *g, const float *b, const float *a, float *dst, size_t count) {
    LUX_DISPATCH(lux_planar_to_float4_avx2(r, g, b, a, dst, count),
                 lux_planar_to_float4_portable(r, g, b, a, dst, count));
}

void lux_rgba8_to_planar(const uint8_t *src, float *r, float *g, float *b, float *a, size_t count) {
    LUX_DISPATCH(lux_rgba8_to_planar_avx2(src, r, g, b, a, count),
                 lux_rgba8_to_planar_portable(src, r, g, b, a, count));
}

void lux_planar_to_rgba8(const float *r, const float *g, const float *b, const float *a, uint8_t *dst, size_t count) {
    LUX_DISPATCH(lux_planar_to_rgba8_avx2(r, g, b, a, dst, count),
                 lux_planar_to_rgba8_portable(r, g, b, a, dst, count));
}

void lux_float4_to_rgba8(const float *src, uint8_t *dst, size_t count) {
    LUX_DISPATCH(lux_float4_to_rgba8_avx2(src, dst, count), lux_float4_to_rgba8_portable(src, dst, count));
}

void lux_planar_to_rgba8_table(const float *r, const float *g, const float *b, const float *a, const uint8_t *table,
                               uint8_t *dst, size_t count) {
    LUX_DISPATCH(lux_planar_to_rgba8_table_avx2(r, g, b, a, table, dst, count),
                 lux_planar_to_rgba8_table_portable(r, g, b, a, table, dst, count));
}

// MARK: 8-bit RGBA colour conversion by tables

// One pixel of lux_rgba8_convert_table: three table rows summed, each channel encoded; alpha copied.
static inline uint32_t lux_rgba8_convert_pixel(const uint8_t *s, const float *table, const uint8_t *encode) {
    const float *r = table + 4 * s[0], *g = table + 1024 + 4 * s[1], *b = table + 2048 + 4 * s[2];
    return (uint32_t)encode[lux_index16(r[0] + g[0] + b[0])] | (uint32_t)encode[lux_index16(r[1] + g[1] + b[1])] << 8 |
           (uint32_t)encode[lux_index16(r[2] + g[2] + b[2])] << 16 | (uint32_t)s[3] << 24;
}

static void lux_rgba8_convert_table_portable(const uint8_t *src, uint8_t *dst, size_t n, const float *table,
                                             const uint8_t *encode) {
    for (size_t i = 0; i < n; i++) {
        const uint32_t p = lux_rgba8_convert_pixel(src + 4 * i, table, encode);
        memcpy(dst + 4 * i, &p, 4);
    }
}

#if LUX_X86
__attribute__((target("avx2")))
static void lux_rgba8_convert_table_avx2(const uint8_t *src, uint8_t *dst, size_t n, const float *table,
                                         const uint8_t *encode) {
    // A pixel a step, its three channels in one vector: the same sums and quantisation as the portable path.
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    const __m128 scale = _mm_set1_ps(65535.0f), magic = _mm_set1_ps(12582912.0f);
    const __m128i mask = _mm_set1_epi32(0xFFFF);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *s = src + 4 * i;
        __m128 v = _mm_add_ps(_mm_add_ps(_mm_loadu_ps(table + 4 * s[0]), _mm_loadu_ps(table + 1024 + 4 * s[1])),
                              _mm_loadu_ps(table + 2048 + 4 * s[2]));
        v = _mm_min_ps(_mm_max_ps(v, zero), one);
        const __m128i q = _mm_and_si128(_mm_castps_si128(_mm_add_ps(_mm_mul_ps(v, scale), magic)), mask);
        const uint32_t p = (uint32_t)encode[_mm_extract_epi32(q, 0)] | (uint32_t)encode[_mm_extract_epi32(q, 1)] << 8 |
                           (uint32_t)encode[_mm_extract_epi32(q, 2)] << 16 | (uint32_t)s[3] << 24;
        memcpy(dst + 4 * i, &p, 4);
    }
}
#endif

void lux_rgba8_convert_table(const uint8_t *src, uint8_t *dst, size_t count, const float *table,
                             const uint8_t *encode) {
    LUX_DISPATCH(lux_rgba8_convert_table_avx2(src, dst, count, table, encode),
                 lux_rgba8_convert_table_portable(src, dst, count, table, encode));
}
