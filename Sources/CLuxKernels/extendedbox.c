// One extended-box pass of the scene renderer's Gaussian (defocus) blur over a zero-padded row of RGBA pixels, as
// four running sums over quarters of the row, with the operations and order of the Swift loop it replaces.
#include "CLuxKernels.h"
#include <string.h>

#pragma clang fp contract(off)

typedef float lux_b4 __attribute__((vector_size(16)));

static inline lux_b4 lux_b4_load(const float *p) {
    lux_b4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline lux_b4 lux_b4_window(const float *src, ptrdiff_t x, ptrdiff_t r) {
    lux_b4 s = {0};
    for (ptrdiff_t j = x - r; j <= x + r; j++) s += lux_b4_load(src + 4 * j);
    return s;
}

void lux_extended_box_rgba(const float *src, float *dst, ptrdiff_t n, ptrdiff_t r, float fraction, float scale) {
    const lux_b4 f = {fraction, fraction, fraction, fraction};
    const lux_b4 k = {scale, scale, scale, scale};
    const ptrdiff_t q = n / 4;
    lux_b4 s[4];
    for (int h = 0; h < 4; h++) s[h] = lux_b4_window(src, h * q, r);
    for (ptrdiff_t i = 0; i < q; i++) {
        for (int h = 0; h < 4; h++) {
            const ptrdiff_t x = h * q + i;
            const lux_b4 a = lux_b4_load(src + 4 * (x + r + 1));
            const lux_b4 b = lux_b4_load(src + 4 * (x - r));
            const lux_b4 c = lux_b4_load(src + 4 * (x - r - 1));
            const lux_b4 d = (s[h] + f * (c + a)) * k;
            memcpy(dst + 4 * x, &d, sizeof d);
            s[h] += a - b;
        }
    }
    // The last quarter runs to the end of the row.
    for (ptrdiff_t x = 4 * q; x < n; x++) {
        const lux_b4 e = lux_b4_load(src + 4 * (x + r + 1));
        const lux_b4 d = (s[3] + f * (lux_b4_load(src + 4 * (x - r - 1)) + e)) * k;
        memcpy(dst + 4 * x, &d, sizeof d);
        s[3] += e - lux_b4_load(src + 4 * (x - r));
    }
}
