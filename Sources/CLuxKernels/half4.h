// One IEEE binary16 value to or from binary32 (portable, bit-exact), and eight interleaved half RGBA pixels to or
// from four float vectors (F16C): the pieces of the row loops that convert half-float pixels.
#ifndef LUX_HALF4_H
#define LUX_HALF4_H

#include <stdint.h>
#include <string.h>

#include "x86.h"

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

#if LUX_X86
// Widens eight interleaved half RGBA pixels at `s` into one vector per channel.
__attribute__((target("avx2,f16c")))
static inline void lux_half4_load8(const uint16_t *s, __m256 *r, __m256 *g, __m256 *b, __m256 *a) {
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256 t0 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s)));       // px0 | px1
    __m256 t1 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + 8)));   // px2 | px3
    __m256 t2 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + 16)));  // px4 | px5
    __m256 t3 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + 24)));  // px6 | px7
    __m256 u0 = _mm256_unpacklo_ps(t0, t1);  // r0 r2 g0 g2 | r1 r3 g1 g3
    __m256 u1 = _mm256_unpackhi_ps(t0, t1);  // b0 b2 a0 a2 | b1 b3 a1 a3
    __m256 u2 = _mm256_unpacklo_ps(t2, t3);
    __m256 u3 = _mm256_unpackhi_ps(t2, t3);
    *r = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u0, u2, 0x44), order);
    *g = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u0, u2, 0xEE), order);
    *b = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u1, u3, 0x44), order);
    *a = _mm256_permutevar8x32_ps(_mm256_shuffle_ps(u1, u3, 0xEE), order);
}

// Narrows one vector per channel into eight interleaved half RGBA pixels at `d` (round to nearest even); `stream`
// uses non-temporal stores (then `d` must be 16-byte aligned).
__attribute__((target("avx2,f16c")))
static inline void lux_half4_store8(uint16_t *d, __m256 R, __m256 G, __m256 B, __m256 A, int stream) {
    __m256 p[4];
    lux_interleave8(R, G, B, A, p);
    __m128i h0 = _mm256_cvtps_ph(p[0], _MM_FROUND_TO_NEAREST_INT);
    __m128i h1 = _mm256_cvtps_ph(p[1], _MM_FROUND_TO_NEAREST_INT);
    __m128i h2 = _mm256_cvtps_ph(p[2], _MM_FROUND_TO_NEAREST_INT);
    __m128i h3 = _mm256_cvtps_ph(p[3], _MM_FROUND_TO_NEAREST_INT);
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
#endif

#endif
