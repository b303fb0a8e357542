// Exposure fusion's per-pixel weight (LuxFusion's MertensBlender) with the default exponents: contrast × saturation ×
// well-exposedness + 10⁻¹², eight pixels at a time (vec8.h), rounding as the Swift loop it replaces (square roots
// correctly rounded, fastExp2's polynomial, no fused multiply-add), so both paths give its bits.
#include "CLuxKernels.h"
#include <string.h>

#include "vec8.h"
#include "x86.h"

#pragma clang fp contract(off)

LUX_V8_OP lux_sf lux_mertens_block(lux_sf r, lux_sf g, lux_sf b, lux_sf contrast, float mean, float k) {
    lux_sf rg = r - g, gb = g - b, br = b - r;
    lux_sf sat = __builtin_elementwise_sqrt((rg * rg + gb * gb + br * br) * (1.0f / 9.0f));
    lux_sf dr = r - mean, dg = g - mean, db = b - mean;
    lux_sf e = lux_v8_exp2((dr * dr + dg * dg + db * db) * k);
    return contrast * sat * e + 1e-12f;
}

static inline __attribute__((always_inline)) void lux_mertens_body(const float *r, const float *g, const float *b,
                                                                   float *weight, size_t n, float mean, float k) {
    size_t x = 0;
    for (; x + 8 <= n; x += 8) {
        lux_sf vr, vg, vb, vc;
        memcpy(&vr, r + x, sizeof vr);
        memcpy(&vg, g + x, sizeof vg);
        memcpy(&vb, b + x, sizeof vb);
        memcpy(&vc, weight + x, sizeof vc);
        lux_sf w = lux_mertens_block(vr, vg, vb, vc, mean, k);
        memcpy(weight + x, &w, sizeof w);
    }
    if (x < n) {
        // The last pixels through a padded block.
        float tr[8] = {0}, tg[8] = {0}, tb[8] = {0}, tc[8] = {0};
        const size_t m = n - x;
        memcpy(tr, r + x, m * sizeof(float));
        memcpy(tg, g + x, m * sizeof(float));
        memcpy(tb, b + x, m * sizeof(float));
        memcpy(tc, weight + x, m * sizeof(float));
        lux_sf vr, vg, vb, vc;
        memcpy(&vr, tr, sizeof vr);
        memcpy(&vg, tg, sizeof vg);
        memcpy(&vb, tb, sizeof vb);
        memcpy(&vc, tc, sizeof vc);
        lux_sf w = lux_mertens_block(vr, vg, vb, vc, mean, k);
        memcpy(weight + x, &w, m * sizeof(float));
    }
}

static void lux_mertens_weights_portable(const float *r, const float *g, const float *b, float *weight, size_t n,
                                         float mean, float k) {
    lux_mertens_body(r, g, b, weight, n, mean, k);
}

#if LUX_X86
__attribute__((target("avx2"))) static void lux_mertens_weights_avx2(const float *r, const float *g, const float *b,
                                                                      float *weight, size_t n, float mean, float k) {
    lux_mertens_body(r, g, b, weight, n, mean, k);
}
#endif

void lux_mertens_weights(const float *r, const float *g, const float *b, float *weight, size_t n, float mean,
                         float k) {
    LUX_DISPATCH(lux_mertens_weights_avx2(r, g, b, weight, n, mean, k),
                 lux_mertens_weights_portable(r, g, b, weight, n, mean, k));
}
