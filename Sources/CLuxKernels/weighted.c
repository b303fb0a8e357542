// The two passes of resamplers: a vertical weighted sum of rows and a horizontal weighted sum of RGBA pixels, each
// output a running sum of products started from zero (no fused multiply-add), in the order the Swift loops they
// replace used; and the widening and rounding of 8-bit resamplers' rows. The AVX2 path compiles the same body with
// wider registers, so both paths agree bit for bit.
#include "CLuxKernels.h"
#include <string.h>

#include "x86.h"

#pragma clang fp contract(off)

typedef float lux_w8 __attribute__((vector_size(32)));
typedef float lux_w4 __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) void lux_weighted_rows_body(const float *const *rows, const float *w,
                                                                         size_t taps, float *out, size_t n) {
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        lux_w8 s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
        for (size_t t = 0; t < taps; t++) {
            const lux_w8 wt = {w[t], w[t], w[t], w[t], w[t], w[t], w[t], w[t]};
            const float *p = rows[t] + k;
            lux_w8 a, b, c, d;
            memcpy(&a, p, sizeof a);
            memcpy(&b, p + 8, sizeof b);
            memcpy(&c, p + 16, sizeof c);
            memcpy(&d, p + 24, sizeof d);
            s0 += wt * a;
            s1 += wt * b;
            s2 += wt * c;
            s3 += wt * d;
        }
        memcpy(out + k, &s0, sizeof s0);
        memcpy(out + k + 8, &s1, sizeof s1);
        memcpy(out + k + 16, &s2, sizeof s2);
        memcpy(out + k + 24, &s3, sizeof s3);
    }
    for (; k < n; k++) {
        float s = 0;
        for (size_t t = 0; t < taps; t++) s += w[t] * rows[t][k];
        out[k] = s;
    }
}

static inline __attribute__((always_inline)) void lux_weighted_pixels_body(const float *src, const ptrdiff_t *first,
                                                                           const float *w, size_t taps, float *out,
                                                                           size_t n) {
    for (size_t x = 0; x < n; x++) {
        lux_w4 s = {0};
        const float *p = src + 4 * first[x];
        const float *wx = w + x * taps;
        for (size_t t = 0; t < taps; t++) {
            const lux_w4 wt = {wx[t], wx[t], wx[t], wx[t]};
            lux_w4 v;
            memcpy(&v, p + 4 * t, sizeof v);
            s += wt * v;
        }
        memcpy(out + 4 * x, &s, sizeof s);
    }
}

static inline __attribute__((always_inline)) void lux_widen_bytes_body(const uint8_t *src, float *dst, size_t n) {
    for (size_t i = 0; i < n; i++) dst[i] = (float)src[i];
}

static inline __attribute__((always_inline)) void lux_narrow_rounding_up_body(const float *src, uint8_t *dst,
                                                                              size_t n) {
    for (size_t i = 0; i < n; i++) {
        float v = src[i] + 0.5f;
        v = v > 0 ? v : 0;  // NaN to 0
        v = v < 255 ? v : 255;
        dst[i] = (uint8_t)(int)v;
    }
}

static void lux_widen_bytes_portable(const uint8_t *src, float *dst, size_t n) { lux_widen_bytes_body(src, dst, n); }

static void lux_narrow_rounding_up_portable(const float *src, uint8_t *dst, size_t n) {
    lux_narrow_rounding_up_body(src, dst, n);
}

static void lux_weighted_rows_portable(const float *const *rows, const float *w, size_t taps, float *out, size_t n) {
    lux_weighted_rows_body(rows, w, taps, out, n);
}

static void lux_weighted_pixels_portable(const float *src, const ptrdiff_t *first, const float *w, size_t taps,
                                         float *out, size_t n) {
    lux_weighted_pixels_body(src, first, w, taps, out, n);
}

#if LUX_X86
__attribute__((target("avx2")))
static void lux_widen_bytes_avx2(const uint8_t *src, float *dst, size_t n) { lux_widen_bytes_body(src, dst, n); }

__attribute__((target("avx2")))
static void lux_narrow_rounding_up_avx2(const float *src, uint8_t *dst, size_t n) {
    lux_narrow_rounding_up_body(src, dst, n);
}

__attribute__((target("avx2")))
static void lux_weighted_rows_avx2(const float *const *rows, const float *w, size_t taps, float *out, size_t n) {
    lux_weighted_rows_body(rows, w, taps, out, n);
}

__attribute__((target("avx2")))
static void lux_weighted_pixels_avx2(const float *src, const ptrdiff_t *first, const float *w, size_t taps,
                                     float *out, size_t n) {
    lux_weighted_pixels_body(src, first, w, taps, out, n);
}
#endif

void lux_weighted_rows(const float *const *rows, const float *weights, size_t taps, float *out, size_t count) {
    LUX_DISPATCH(lux_weighted_rows_avx2(rows, weights, taps, out, count),
                 lux_weighted_rows_portable(rows, weights, taps, out, count));
}

void lux_weighted_pixels(const float *src, const ptrdiff_t *first, const float *weights, size_t taps, float *out,
                         size_t count) {
    LUX_DISPATCH(lux_weighted_pixels_avx2(src, first, weights, taps, out, count),
                 lux_weighted_pixels_portable(src, first, weights, taps, out, count));
}

void lux_widen_bytes(const uint8_t *src, float *dst, size_t count) {
    LUX_DISPATCH(lux_widen_bytes_avx2(src, dst, count), lux_widen_bytes_portable(src, dst, count));
}

void lux_narrow_rounding_up(const float *src, uint8_t *dst, size_t count) {
    LUX_DISPATCH(lux_narrow_rounding_up_avx2(src, dst, count), lux_narrow_rounding_up_portable(src, dst, count));
}
