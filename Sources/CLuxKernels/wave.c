// The halftone screens' cosine wave (LuxFilters' HalftoneScreen), a row of pixels at a time: libm's cosf is a call
// per pixel, while this body is branch-free and vectorises (eight lanes on the AVX2 path).
#include "CLuxKernels.h"
#include <math.h>

#include "x86.h"

#pragma clang fp contract(off)

// ½ + ½·cos(2π·t): r = t − rint(t) in [−½, ½] (exact), a = |r|, folded to [0, ¼] by cos(2π·a) = −cos(2π·(½ − a))
// (½ − a exact), then the even Taylor series of cos(x) for x = 2π·a ≤ π/2 to x¹² (truncation below 7e-9).
static inline __attribute__((always_inline)) void lux_cos_wave_body(const float *t, float *out,
                                                                   size_t count) {
    // Element i reads only t[i] before writing out[i], so `t` may be `out`.
#pragma clang loop vectorize(assume_safety)
    for (size_t i = 0; i < count; i++) {
        const float r = t[i] - rintf(t[i]);
        const float a = fabsf(r);
        const int flip = a > 0.25f;
        const float x = (flip ? 0.5f - a : a) * 6.28318530717958647692f;
        const float x2 = x * x;
        float p = 1.0f / 479001600.0f;
        p = p * x2 - 1.0f / 3628800.0f;
        p = p * x2 + 1.0f / 40320.0f;
        p = p * x2 - 1.0f / 720.0f;
        p = p * x2 + 1.0f / 24.0f;
        p = p * x2 - 0.5f;
        p = p * x2 + 1.0f;
        out[i] = 0.5f + 0.5f * (flip ? -p : p);
    }
}

static void lux_cos_wave_portable(const float *t, float *out, size_t count) { lux_cos_wave_body(t, out, count); }

#if LUX_X86
__attribute__((target("avx2"))) static void lux_cos_wave_avx2(const float *t, float *out, size_t count) {
    lux_cos_wave_body(t, out, count);
}
#endif

void lux_cos_wave(const float *t, float *out, size_t count) {
    LUX_DISPATCH(lux_cos_wave_avx2(t, out, count), lux_cos_wave_portable(t, out, count));
}
