// The inner loop of separable blurs: a symmetric FIR over a float row, 8 lanes wide with AVX2 and FMA when the CPU
// has them. Both paths compute every output with the same operations in the same order, each tap one fused
// multiply-add (fmaf in the portable path: an instruction on AArch64 and FMA x86, a library call on older x86), so
// they agree bit for bit.
#include "CLuxKernels.h"
#include <math.h>

#include "x86.h"

#pragma clang fp contract(off)

static void lux_symmetric_fir_portable(const float *src, ptrdiff_t step, const float *w, int radius, float *out, size_t n) {
    for (size_t k = 0; k < n; k++) {
        const float *c = src + k;
        float s = w[0] * c[0];
        for (int t = 1; t <= radius; t++) s = fmaf(w[t], c[-t * step] + c[t * step], s);
        out[k] = s;
    }
}

// Two outputs a step apart (`out0` from `src`, `out1` from `src + step`): each tap's inputs are loaded once for both,
// with the operations of two single calls.
static void lux_symmetric_fir_pair_portable(const float *src, ptrdiff_t step, const float *w, int radius, float *out0,
                                            float *out1, size_t n) {
    lux_symmetric_fir_portable(src, step, w, radius, out0, n);
    lux_symmetric_fir_portable(src + step, step, w, radius, out1, n);
}

#if LUX_X86
__attribute__((target("avx2,fma")))
static void lux_symmetric_fir_avx2(const float *src, ptrdiff_t step, const float *w, int radius, float *out, size_t n) {
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        const float *c = src + k;
        __m256 w0 = _mm256_set1_ps(w[0]);
        __m256 s0 = _mm256_mul_ps(w0, _mm256_loadu_ps(c));
        __m256 s1 = _mm256_mul_ps(w0, _mm256_loadu_ps(c + 8));
        __m256 s2 = _mm256_mul_ps(w0, _mm256_loadu_ps(c + 16));
        __m256 s3 = _mm256_mul_ps(w0, _mm256_loadu_ps(c + 24));
        for (int t = 1; t <= radius; t++) {
            __m256 wt = _mm256_set1_ps(w[t]);
            const float *lo = c - t * step;
            const float *hi = c + t * step;
            s0 = _mm256_fmadd_ps(wt, _mm256_add_ps(_mm256_loadu_ps(lo), _mm256_loadu_ps(hi)), s0);
            s1 = _mm256_fmadd_ps(wt, _mm256_add_ps(_mm256_loadu_ps(lo + 8), _mm256_loadu_ps(hi + 8)), s1);
            s2 = _mm256_fmadd_ps(wt, _mm256_add_ps(_mm256_loadu_ps(lo + 16), _mm256_loadu_ps(hi + 16)), s2);
            s3 = _mm256_fmadd_ps(wt, _mm256_add_ps(_mm256_loadu_ps(lo + 24), _mm256_loadu_ps(hi + 24)), s3);
        }
        _mm256_storeu_ps(out + k, s0);
        _mm256_storeu_ps(out + k + 8, s1);
        _mm256_storeu_ps(out + k + 16, s2);
        _mm256_storeu_ps(out + k + 24, s3);
    }
    for (; k + 8 <= n; k += 8) {
        const float *c = src + k;
        __m256 s = _mm256_mul_ps(_mm256_set1_ps(w[0]), _mm256_loadu_ps(c));
        for (int t = 1; t <= radius; t++) {
            __m256 sum = _mm256_add_ps(_mm256_loadu_ps(c - t * step), _mm256_loadu_ps(c + t * step));
            s = _mm256_fmadd_ps(_mm256_set1_ps(w[t]), sum, s);
        }
        _mm256_storeu_ps(out + k, s);
    }
    lux_symmetric_fir_portable(src + k, step, w, radius, out + k, n - k);
}

__attribute__((target("avx2,fma")))
static void lux_symmetric_fir_pair_avx2(const float *src, ptrdiff_t step, const float *w, int radius, float *out0,
                                        float *out1, size_t n) {
    // For tap t, out0 needs rows −t and t, out1 rows 1 − t and 1 + t: row 1 − t was row −(t − 1) of the step
    // before and row t + 1 is row t of the step after, so each step loads two rows, not four.
    size_t k = 0;
    for (; k + 16 <= n; k += 16) {
        const float *c = src + k;
        __m256 w0 = _mm256_set1_ps(w[0]);
        __m256 a0 = _mm256_loadu_ps(c), a1 = _mm256_loadu_ps(c + 8);                // row 1 − t (t = 1: row 0)
        __m256 b0 = _mm256_loadu_ps(c + step), b1 = _mm256_loadu_ps(c + step + 8);  // row t (t = 1: row 1)
        __m256 s00 = _mm256_mul_ps(w0, a0), s01 = _mm256_mul_ps(w0, a1);
        __m256 s10 = _mm256_mul_ps(w0, b0), s11 = _mm256_mul_ps(w0, b1);
        for (int t = 1; t <= radius; t++) {
            __m256 wt = _mm256_set1_ps(w[t]);
            const float *lo = c - t * step;
            const float *hi = c + (t + 1) * step;
            __m256 n0 = _mm256_loadu_ps(lo), n1 = _mm256_loadu_ps(lo + 8);
            __m256 p0 = _mm256_loadu_ps(hi), p1 = _mm256_loadu_ps(hi + 8);
            s00 = _mm256_fmadd_ps(wt, _mm256_add_ps(n0, b0), s00);
            s01 = _mm256_fmadd_ps(wt, _mm256_add_ps(n1, b1), s01);
            s10 = _mm256_fmadd_ps(wt, _mm256_add_ps(a0, p0), s10);
            s11 = _mm256_fmadd_ps(wt, _mm256_add_ps(a1, p1), s11);
            a0 = n0, a1 = n1, b0 = p0, b1 = p1;
        }
        _mm256_storeu_ps(out0 + k, s00);
        _mm256_storeu_ps(out0 + k + 8, s01);
        _mm256_storeu_ps(out1 + k, s10);
        _mm256_storeu_ps(out1 + k + 8, s11);
    }
    lux_symmetric_fir_avx2(src + k, step, w, radius, out0 + k, n - k);
    lux_symmetric_fir_avx2(src + step + k, step, w, radius, out1 + k, n - k);
}
#endif

void lux_symmetric_fir(const float *src, ptrdiff_t step, const float *weights, int radius, float *out, size_t count) {
    LUX_DISPATCH(lux_symmetric_fir_avx2(src, step, weights, radius, out, count),
                 lux_symmetric_fir_portable(src, step, weights, radius, out, count));
}

void lux_symmetric_fir_pair(const float *src, ptrdiff_t step, const float *weights, int radius, float *out0,
                            float *out1, size_t count) {
    LUX_DISPATCH(lux_symmetric_fir_pair_avx2(src, step, weights, radius, out0, out1, count),
                 lux_symmetric_fir_pair_portable(src, step, weights, radius, out0, out1, count));
}

static void lux_accumulate_taps_portable(float *acc, const float *even, const float *odd, float w0, float w1, float w2,
                                         float w3, int taps, size_t count) {
    for (size_t i = 0; i < count; i++) {
        float t = fmaf(w0, even[i], acc[i]);
        if (taps >= 2) t = fmaf(w1, odd[i], t);
        if (taps >= 4) {
            t = fmaf(w2, even[i + 2], t);
            t = fmaf(w3, odd[i + 2], t);
        }
        acc[i] = t;
    }
}

#if LUX_X86
__attribute__((target("avx2,fma")))
static void lux_accumulate_taps_fma(float *acc, const float *even, const float *odd, float w0, float w1, float w2,
                                    float w3, int taps, size_t count) {
    size_t i = 0;
    const __m256 W0 = _mm256_set1_ps(w0), W1 = _mm256_set1_ps(w1), W2 = _mm256_set1_ps(w2), W3 = _mm256_set1_ps(w3);
    if (taps >= 4) {
        for (; i + 8 <= count; i += 8) {
            __m256 t = _mm256_fmadd_ps(W0, _mm256_loadu_ps(even + i), _mm256_loadu_ps(acc + i));
            t = _mm256_fmadd_ps(W1, _mm256_loadu_ps(odd + i), t);
            t = _mm256_fmadd_ps(W2, _mm256_loadu_ps(even + i + 2), t);
            _mm256_storeu_ps(acc + i, _mm256_fmadd_ps(W3, _mm256_loadu_ps(odd + i + 2), t));
        }
    } else if (taps == 2) {
        for (; i + 8 <= count; i += 8) {
            __m256 t = _mm256_fmadd_ps(W0, _mm256_loadu_ps(even + i), _mm256_loadu_ps(acc + i));
            _mm256_storeu_ps(acc + i, _mm256_fmadd_ps(W1, _mm256_loadu_ps(odd + i), t));
        }
    } else {
        for (; i + 8 <= count; i += 8) {
            _mm256_storeu_ps(acc + i, _mm256_fmadd_ps(W0, _mm256_loadu_ps(even + i), _mm256_loadu_ps(acc + i)));
        }
    }
    lux_accumulate_taps_portable(acc + i, even + i, taps >= 2 ? odd + i : odd, w0, w1, w2, w3, taps, count - i);
}
#endif

void lux_accumulate_taps(float *acc, const float *even, const float *odd, float w0, float w1, float w2, float w3,
                         int taps, size_t count) {
    LUX_DISPATCH(lux_accumulate_taps_fma(acc, even, odd, w0, w1, w2, w3, taps, count),
                 lux_accumulate_taps_portable(acc, even, odd, w0, w1, w2, w3, taps, count));
}
