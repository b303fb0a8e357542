// The render engine's colour matrix over premultiplied float planes, 8 lanes wide with AVX2 and FMA when the CPU
// has them. Every sum is a chain of fused multiply-adds in the same order on both paths (`fmaf` rounds once, like
// the instruction), so they agree bit for bit, and a pixel's value does not depend on where a row span starts.
#include "CLuxKernels.h"
#include <math.h>

#include "half4.h"
#include "x86.h"

#pragma clang fp contract(off)

// Whether the alpha terms are all zero (then they are left out: `(0·a + 0)·a` is not always 0, e.g. for a = ∞).
static int lux_no_alpha_terms(const float *c) {
    for (int i = 9; i < 15; i++) {
        if (c[i] != 0) return 0;
    }
    return 1;
}

// Whether M is diagonal (then each channel reads only itself: an infinite green must not turn red into NaN through
// a zero entry, 0·∞).
static int lux_is_diagonal(const float *c) {
    return c[1] == 0 && c[2] == 0 && c[3] == 0 && c[5] == 0 && c[6] == 0 && c[7] == 0;
}

// One output channel: `((K·a + B)·a + m0·r) + m1·g) + m2·b`, or `(m0·r + m1·g) + m2·b` without the alpha term,
// each step one rounding.
// A diagonal M keeps only the first step, `(K·a + B)·a + m·x` with m the channel's own entry.
static inline float lux_matrix_term(float m, float x, float k, float bias, float a, int alpha) {
    return alpha ? fmaf(m, x, fmaf(k, a, bias) * a) : m * x;
}

static inline float lux_matrix_row(const float *m, float k, float bias, float r, float g, float b, float a, int alpha) {
    return fmaf(m[2], b, fmaf(m[1], g, lux_matrix_term(m[0], r, k, bias, a, alpha)));
}

static void lux_color_matrix_portable(float *r, float *g, float *b, const float *a, const float *c, int alpha, int diagonal, size_t n) {
    for (size_t i = 0; i < n; i++) {
        float R = r[i], G = g[i], B = b[i], A = alpha ? a[i] : 0;
        if (diagonal) {
            r[i] = lux_matrix_term(c[0], R, c[9], c[12], A, alpha);
            g[i] = lux_matrix_term(c[4], G, c[10], c[13], A, alpha);
            b[i] = lux_matrix_term(c[8], B, c[11], c[14], A, alpha);
        } else {
            r[i] = lux_matrix_row(c, c[9], c[12], R, G, B, A, alpha);
            g[i] = lux_matrix_row(c + 3, c[10], c[13], R, G, B, A, alpha);
            b[i] = lux_matrix_row(c + 6, c[11], c[14], R, G, B, A, alpha);
        }
    }
}

#if LUX_X86
__attribute__((target("avx2,fma")))
static inline __m256 lux_matrix_term_avx2(__m256 m, __m256 x, __m256 k, __m256 bias, __m256 a, int alpha) {
    return alpha ? _mm256_fmadd_ps(m, x, _mm256_mul_ps(_mm256_fmadd_ps(k, a, bias), a)) : _mm256_mul_ps(m, x);
}

__attribute__((target("avx2,fma")))
static inline __m256 lux_matrix_row_avx2(const __m256 *m, __m256 k, __m256 bias, __m256 r, __m256 g, __m256 b, __m256 a, int alpha) {
    return _mm256_fmadd_ps(m[2], b, _mm256_fmadd_ps(m[1], g, lux_matrix_term_avx2(m[0], r, k, bias, a, alpha)));
}

__attribute__((target("avx2,fma")))
static void lux_color_matrix_avx2(float *r, float *g, float *b, const float *a, const float *c, int alpha, int diagonal, size_t n) {
    __m256 m[15];
    for (int k = 0; k < 15; k++) m[k] = _mm256_set1_ps(c[k]);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 R = _mm256_loadu_ps(r + i), G = _mm256_loadu_ps(g + i), B = _mm256_loadu_ps(b + i);
        __m256 A = alpha ? _mm256_loadu_ps(a + i) : _mm256_setzero_ps();
        if (diagonal) {
            _mm256_storeu_ps(r + i, lux_matrix_term_avx2(m[0], R, m[9], m[12], A, alpha));
            _mm256_storeu_ps(g + i, lux_matrix_term_avx2(m[4], G, m[10], m[13], A, alpha));
            _mm256_storeu_ps(b + i, lux_matrix_term_avx2(m[8], B, m[11], m[14], A, alpha));
        } else {
            _mm256_storeu_ps(r + i, lux_matrix_row_avx2(m, m[9], m[12], R, G, B, A, alpha));
            _mm256_storeu_ps(g + i, lux_matrix_row_avx2(m + 3, m[10], m[13], R, G, B, A, alpha));
            _mm256_storeu_ps(b + i, lux_matrix_row_avx2(m + 6, m[11], m[14], R, G, B, A, alpha));
        }
    }
    lux_color_matrix_portable(r + i, g + i, b + i, a + i, c, alpha, diagonal, n - i);
}
#endif

void lux_color_matrix(float *r, float *g, float *b, const float *a, const float *coefficients, size_t count) {
    int alpha = !lux_no_alpha_terms(coefficients);
    int diagonal = lux_is_diagonal(coefficients);
    LUX_DISPATCH(lux_color_matrix_avx2(r, g, b, a, coefficients, alpha, diagonal, count),
                 lux_color_matrix_portable(r, g, b, a, coefficients, alpha, diagonal, count));
}

// The matrix over interleaved half RGBA rows, optionally between a premultiply and an unpremultiply: each pixel is
// converted, transformed and narrowed in registers. A pixel with alpha exactly 1 skips both alpha steps (they would
// be identities); the others get `c·a` and `c·(1/a)` (0 for a = 0), as the engine's separate alpha steps compute.
// Alpha goes through float and back like the colour (a signalling NaN comes out quiet on both paths).

static inline void lux_half4_color_matrix_one(const uint16_t *s, uint16_t *d, const float *c, int premultiply,
                                              int unpremultiply, int alpha, int diagonal) {
    float R = lux_half_to_float_one(s[0]), G = lux_half_to_float_one(s[1]), B = lux_half_to_float_one(s[2]);
    float A = lux_half_to_float_one(s[3]);
    if (premultiply && A != 1) {
        R = R * A;
        G = G * A;
        B = B * A;
    }
    lux_color_matrix_portable(&R, &G, &B, &A, c, alpha, diagonal, 1);
    if (unpremultiply && A != 1) {
        float inv = A != 0 ? 1 / A : 0;
        R = R * inv;
        G = G * inv;
        B = B * inv;
    }
    d[0] = lux_float_to_half_one(R);
    d[1] = lux_float_to_half_one(G);
    d[2] = lux_float_to_half_one(B);
    d[3] = lux_float_to_half_one(A);
}

static void lux_half4_color_matrix_portable(const uint16_t *src, uint16_t *dst, const float *c, int premultiply,
                                            int unpremultiply, int alpha, int diagonal, size_t n) {
    for (size_t i = 0; i < n; i++) {
        lux_half4_color_matrix_one(src + 4 * i, dst + 4 * i, c, premultiply, unpremultiply, alpha, diagonal);
    }
}

#if LUX_X86
__attribute__((target("avx2,fma,f16c")))
static void lux_half4_color_matrix_avx2(const uint16_t *src, uint16_t *dst, const float *c, int premultiply,
                                        int unpremultiply, int alpha, int diagonal, int stream, size_t n) {
    __m256 m[15];
    for (int k = 0; k < 15; k++) m[k] = _mm256_set1_ps(c[k]);
    const __m256 one = _mm256_set1_ps(1), zero = _mm256_setzero_ps();
    if (stream && ((uintptr_t)dst & 15) != 0) stream = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 R, G, B, A;
        lux_half4_load8(src + 4 * i, &R, &G, &B, &A);
        // Lanes whose alpha is not exactly 1 (NaN included); when there are none both alpha steps are skipped.
        __m256 translucent = _mm256_cmp_ps(A, one, _CMP_NEQ_UQ);
        int any = !_mm256_testz_ps(translucent, translucent);
        if (premultiply && any) {
            R = _mm256_blendv_ps(R, _mm256_mul_ps(R, A), translucent);
            G = _mm256_blendv_ps(G, _mm256_mul_ps(G, A), translucent);
            B = _mm256_blendv_ps(B, _mm256_mul_ps(B, A), translucent);
        }
        __m256 R2, G2, B2;
        if (diagonal) {
            R2 = lux_matrix_term_avx2(m[0], R, m[9], m[12], A, alpha);
            G2 = lux_matrix_term_avx2(m[4], G, m[10], m[13], A, alpha);
            B2 = lux_matrix_term_avx2(m[8], B, m[11], m[14], A, alpha);
        } else {
            R2 = lux_matrix_row_avx2(m, m[9], m[12], R, G, B, A, alpha);
            G2 = lux_matrix_row_avx2(m + 3, m[10], m[13], R, G, B, A, alpha);
            B2 = lux_matrix_row_avx2(m + 6, m[11], m[14], R, G, B, A, alpha);
        }
        if (unpremultiply && any) {
            __m256 inv = _mm256_and_ps(_mm256_div_ps(one, A), _mm256_cmp_ps(A, zero, _CMP_NEQ_UQ));
            R2 = _mm256_blendv_ps(R2, _mm256_mul_ps(R2, inv), translucent);
            G2 = _mm256_blendv_ps(G2, _mm256_mul_ps(G2, inv), translucent);
            B2 = _mm256_blendv_ps(B2, _mm256_mul_ps(B2, inv), translucent);
        }
        lux_half4_store8(dst + 4 * i, R2, G2, B2, A, stream);
    }
    if (stream) _mm_sfence();
    lux_half4_color_matrix_portable(src + 4 * i, dst + 4 * i, c, premultiply, unpremultiply, alpha, diagonal, n - i);
}
#endif

void lux_half4_color_matrix(const uint16_t *src, uint16_t *dst, const float *coefficients, int premultiply,
                            int unpremultiply, int streaming, size_t count) {
    int alpha = !lux_no_alpha_terms(coefficients);
    int diagonal = lux_is_diagonal(coefficients);
    LUX_DISPATCH(
        lux_half4_color_matrix_avx2(src, dst, coefficients, premultiply, unpremultiply, alpha, diagonal, streaming,
                                    count),
        lux_half4_color_matrix_portable(src, dst, coefficients, premultiply, unpremultiply, alpha, diagonal, count));
}
