// Exposure fusion's per-pixel weight (LuxFusion's MertensBlender) with the default exponents: contrast × saturation ×
// well-exposedness + 10⁻¹², eight pixels at a time (vec8.h), rounding as the Swift loop it replaces (square roots
// correctly rounded, fastExp2's polynomial, no fused multiply-add), so both paths give its bits.
#include "CLuxKernels.h"
#include <string.h>

#include "vec8.h"
#include "x86.h"

#pragma clang fp contract(off)

// Eight weights in place: `weight` holds the pixels' contrast on entry.
LUX_V8_OP void lux_mertens_eight(const float *r, const float *g, const float *b, float *weight, float mean, float k) {
    lux_sf vr, vg, vb, contrast;
    memcpy(&vr, r, sizeof vr);
    memcpy(&vg, g, sizeof vg);
    memcpy(&vb, b, sizeof vb);
    memcpy(&contrast, weight, sizeof contrast);
    lux_sf rg = vr - vg, gb = vg - vb, br = vb - vr;
    lux_sf sat = __builtin_elementwise_sqrt((rg * rg + gb * gb + br * br) * (1.0f / 9.0f));
    lux_sf dr = vr - mean, dg = vg - mean, db = vb - mean;
    lux_sf e = lux_v8_exp2((dr * dr + dg * dg + db * db) * k);
    lux_sf w = contrast * sat * e + 1e-12f;
    memcpy(weight, &w, sizeof w);
}

static inline __attribute__((always_inline)) void lux_mertens_body(const float *r, const float *g, const float *b,
                                                                   float *weight, size_t n, float mean, float k) {
    size_t x = 0;
    for (; x + 8 <= n; x += 8) lux_mertens_eight(r + x, g + x, b + x, weight + x, mean, k);
    if (x < n) {
        // The last pixels through a padded block.
        float tr[8] = {0}, tg[8] = {0}, tb[8] = {0}, tw[8] = {0};
        const size_t m = (n - x) * sizeof(float);
        memcpy(tr, r + x, m);
        memcpy(tg, g + x, m);
        memcpy(tb, b + x, m);
        memcpy(tw, weight + x, m);
        lux_mertens_eight(tr, tg, tb, tw, mean, k);
        memcpy(weight + x, tw, m);
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
