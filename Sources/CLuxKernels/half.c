// Row conversion between IEEE binary16 and binary32.
// The baseline x86-64 target has no F16C, where each conversion is a library call (~3 ns);
// these row functions pick an F16C/AVX2 loop at run time instead.
#include "CLuxKernels.h"
#include <string.h>

#include "x86.h"

static int lux_forced_portable = 0;

void lux_force_portable(int force) { lux_forced_portable = force; }

int lux_has_f16c(void) {
#if LUX_X86
    static int cached = -1;
    if (lux_forced_portable) return 0;
    if (cached < 0) {
        __builtin_cpu_init();
        cached = (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            ? 1 : 0;
    }
    return cached;
#else
    return 0;
#endif
}

static inline uint32_t lux_bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float lux_float_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static inline float lux_half_to_float_one(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    if (exp == 0x1Fu) return lux_float_of(sign | 0x7F800000u | (man << 13));       // inf / NaN
    if (exp == 0) {                                                                  // zero / subnormal
        float v = (float)man * 5.9604644775390625e-08f;                              // man * 2^-24
        return sign ? -v : v;
    }
    return lux_float_of(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline uint16_t lux_float_to_half_one(float f) {
    uint32_t x = lux_bits_of(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7FFFFFFFu;
    if (absx >= 0x7F800000u) {                                                       // inf / NaN
        return (uint16_t)(sign | 0x7C00u | (absx > 0x7F800000u ? (0x200u | ((absx >> 13) & 0x3FFu)) : 0));
    }
    if (absx >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);                      // rounds to >= 65520: inf
    if (absx < 0x38800000u) {                                                        // result subnormal or zero
        // Add 0.5 (as float) to push the value's bits into the low mantissa, rounding to nearest even.
        float v = lux_float_of(absx) + 0.5f;
        return (uint16_t)(sign | (lux_bits_of(v) - 0x3F000000u));
    }
    uint32_t mant_odd = (absx >> 13) & 1u;
    absx += 0xC8000FFFu + mant_odd;                                                  // rebias exponent, round
    return (uint16_t)(sign | (absx >> 13));
}

static void lux_half_to_float_portable(const uint16_t *src, float *dst, size_t count) {
    for (size_t i = 0; i < count; i++) dst[i] = lux_half_to_float_one(src[i]);
}

static void lux_float_to_half_portable(const float *src, uint16_t *dst, size_t count) {
    for (size_t i = 0; i < count; i++) dst[i] = lux_float_to_half_one(src[i]);
}

#if LUX_X86
__attribute__((target("avx2,f16c")))
static void lux_half_to_float_f16c(const uint16_t *src, float *dst, size_t count) {
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 8));
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(a));
        _mm256_storeu_ps(dst + i + 8, _mm256_cvtph_ps(b));
    }
    for (; i + 8 <= count; i += 8) {
        __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(a));
    }
    for (; i < count; i++) dst[i] = lux_half_to_float_one(src[i]);
}

__attribute__((target("avx2,f16c")))
static void lux_float_to_half_f16c(const float *src, uint16_t *dst, size_t count) {
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256 a = _mm256_loadu_ps(src + i);
        __m256 b = _mm256_loadu_ps(src + i + 8);
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
        _mm_storeu_si128((__m128i *)(dst + i + 8), _mm256_cvtps_ph(b, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i + 8 <= count; i += 8) {
        __m256 a = _mm256_loadu_ps(src + i);
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < count; i++) dst[i] = lux_float_to_half_one(src[i]);
}
#endif

void lux_half_to_float(const uint16_t *src, float *dst, size_t count) {
    LUX_DISPATCH(lux_half_to_float_f16c(src, dst, count), lux_half_to_float_portable(src, dst, count));
}

void lux_float_to_half(const float *src, uint16_t *dst, size_t count) {
    LUX_DISPATCH(lux_float_to_half_f16c(src, dst, count), lux_float_to_half_portable(src, dst, count));
}

// Interleaved half RGBA <-> four float planes (the render engine's row format), in one pass.

static void lux_half4_to_planar_portable(const uint16_t *src, float *r, float *g, float *b, float *a, size_t n) {
    for (size_t i = 0; i < n; i++) {
        r[i] = lux_half_to_float_one(src[4 * i]);
        g[i] = lux_half_to_float_one(src[4 * i + 1]);
        b[i] = lux_half_to_float_one(src[4 * i + 2]);
        a[i] = lux_half_to_float_one(src[4 * i + 3]);
    }
}

static void lux_planar_to_half4_portable(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[4 * i] = lux_float_to_half_one(r[i]);
        dst[4 * i + 1] = lux_float_to_half_one(g[i]);
        dst[4 * i + 2] = lux_float_to_half_one(b[i]);
        dst[4 * i + 3] = lux_float_to_half_one(a[i]);
    }
}

#if LUX_X86
__attribute__((target("avx2,f16c")))
static void lux_half4_to_planar_f16c(const uint16_t *src, float *r, float *g, float *b, float *a, size_t n) {
    size_t i = 0;
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (; i + 8 <= n; i += 8) {
        const uint16_t *s = src + 4 * i;
        __m256 t0 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s)));       // px0 | px1
        __m256 t1 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + 8)));   // px2 | px3
        __m256 t2 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + 16)));  // px4 | px5
        __m256 t3 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + 24)));  // px6 | px7
        __m256 u0 = _mm256_unpacklo_ps(t0, t1);  // r0 r2 g0 g2 | r1 r3 g1 g3
        __m256 u1 = _mm256_unpackhi_ps(t0, t1);  // b0 b2 a0 a2 | b1 b3 a1 a3
        __m256 u2 = _mm256_unpacklo_ps(t2, t3);
        __m256 u3 = _mm256_unpackhi_ps(t2, t3);
        _mm256_storeu_ps(r + i, _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u0, u2, 0x44), order));
        _mm256_storeu_ps(g + i, _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u0, u2, 0xEE), order));
        _mm256_storeu_ps(b + i, _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u1, u3, 0x44), order));
        _mm256_storeu_ps(a + i, _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u1, u3, 0xEE), order));
    }
    lux_half4_to_planar_portable(src + 4 * i, r + i, g + i, b + i, a + i, n - i);
}

__attribute__((target("avx2,f16c")))
static void lux_planar_to_half4_f16c(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t n, int stream) {
    size_t i = 0;
    // Streaming (non-temporal) stores skip reading the destination lines first; they need 16-byte alignment.
    if (stream && ((uintptr_t)dst & 15) != 0) stream = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 R = _mm256_loadu_ps(r + i), G = _mm256_loadu_ps(g + i), B = _mm256_loadu_ps(b + i), A = _mm256_loadu_ps(a + i);
        __m256 u0 = _mm256_unpacklo_ps(R, G);  // r0 g0 r1 g1 | r4 g4 r5 g5
        __m256 u1 = _mm256_unpackhi_ps(R, G);  // r2 g2 r3 g3 | r6 g6 r7 g7
        __m256 u2 = _mm256_unpacklo_ps(B, A);
        __m256 u3 = _mm256_unpackhi_ps(B, A);
        __m256 w0 = _mm256_shuffle_ps(u0, u2, 0x44);  // px0 | px4
        __m256 w1 = _mm256_shuffle_ps(u0, u2, 0xEE);  // px1 | px5
        __m256 w2 = _mm256_shuffle_ps(u1, u3, 0x44);  // px2 | px6
        __m256 w3 = _mm256_shuffle_ps(u1, u3, 0xEE);  // px3 | px7
        uint16_t *d = dst + 4 * i;
        __m128i h0 = _mm256_cvtps_ph(_mm256_permute2f128_ps(w0, w1, 0x20), _MM_FROUND_TO_NEAREST_INT);
        __m128i h1 = _mm256_cvtps_ph(_mm256_permute2f128_ps(w2, w3, 0x20), _MM_FROUND_TO_NEAREST_INT);
        __m128i h2 = _mm256_cvtps_ph(_mm256_permute2f128_ps(w0, w1, 0x31), _MM_FROUND_TO_NEAREST_INT);
        __m128i h3 = _mm256_cvtps_ph(_mm256_permute2f128_ps(w2, w3, 0x31), _MM_FROUND_TO_NEAREST_INT);
        if (stream) {
            _mm_stream_si128((__m128i *)(d), h0);
            _mm_stream_si128((__m128i *)(d + 8), h1);
            _mm_stream_si128((__m128i *)(d + 16), h2);
            _mm_stream_si128((__m128i *)(d + 24), h3);
        } else {
            _mm_storeu_si128((__m128i *)(d), h0);
            _mm_storeu_si128((__m128i *)(d + 8), h1);
            _mm_storeu_si128((__m128i *)(d + 16), h2);
            _mm_storeu_si128((__m128i *)(d + 24), h3);
        }
    }
    if (stream) _mm_sfence();
    lux_planar_to_half4_portable(r + i, g + i, b + i, a + i, dst + 4 * i, n - i);
}
#endif

void lux_half4_to_planar(const uint16_t *src, float *r, float *g, float *b, float *a, size_t count) {
    LUX_DISPATCH(lux_half4_to_planar_f16c(src, r, g, b, a, count),
                 lux_half4_to_planar_portable(src, r, g, b, a, count));
}

void lux_planar_to_half4(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t count) {
    LUX_DISPATCH(lux_planar_to_half4_f16c(r, g, b, a, dst, count, 0),
                 lux_planar_to_half4_portable(r, g, b, a, dst, count));
}

void lux_planar_to_half4_streaming(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t count) {
    LUX_DISPATCH(lux_planar_to_half4_f16c(r, g, b, a, dst, count, 1),
                 lux_planar_to_half4_portable(r, g, b, a, dst, count));
}
