// The extended-box passes of the scene renderer's Gaussian (defocus) blur: the horizontal pass over a zero-padded row
// of RGBA pixels, as four running sums over quarters of the row, and the vertical passes' running-sum updates over
// rows of floats, with the operations and order of the Swift loops they replace.
#include "CLuxKernels.h"
#include <string.h>

#include "x86.h"

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

// The vertical passes' element-wise loops. Each is one expression per element, so the compiler vectorises it with
// the registers of the target it is compiled for; with contraction off both targets round every operation alike.
static inline __attribute__((always_inline)) void lux_vertical_box_slide_body(float *restrict sum,
                                                                             const float *restrict enter,
                                                                             const float *restrict leave,
                                                                             size_t count) {
    for (size_t i = 0; i < count; i++) sum[i] += enter[i] - leave[i];
}

static inline __attribute__((always_inline)) void lux_vertical_box_emit_body(
    float *restrict sum, const float *restrict enter, const float *restrict leave, const float *restrict newest,
    float *restrict out, size_t count, float fraction, float scale) {
    for (size_t i = 0; i < count; i++) {
        const float t = sum[i] + enter[i] - leave[i];
        sum[i] = t;
        out[i] = (t + fraction * (leave[i] + newest[i])) * scale;
    }
}

static void lux_vertical_box_slide_portable(float *sum, const float *enter, const float *leave, size_t count) {
    lux_vertical_box_slide_body(sum, enter, leave, count);
}

static void lux_vertical_box_emit_portable(float *sum, const float *enter, const float *leave, const float *newest,
                                           float *out, size_t count, float fraction, float scale) {
    lux_vertical_box_emit_body(sum, enter, leave, newest, out, count, fraction, scale);
}

#if LUX_X86
__attribute__((target("avx2"))) static void lux_vertical_box_slide_avx2(float *sum, const float *enter,
                                                                        const float *leave, size_t count) {
    lux_vertical_box_slide_body(sum, enter, leave, count);
}

__attribute__((target("avx2"))) static void lux_vertical_box_emit_avx2(float *sum, const float *enter,
                                                                       const float *leave, const float *newest,
                                                                       float *out, size_t count, float fraction,
                                                                       float scale) {
    lux_vertical_box_emit_body(sum, enter, leave, newest, out, count, fraction, scale);
}
#endif

void lux_vertical_box_slide(float *sum, const float *enter, const float *leave, size_t count) {
    LUX_DISPATCH(lux_vertical_box_slide_avx2(sum, enter, leave, count),
                 lux_vertical_box_slide_portable(sum, enter, leave, count));
}

void lux_vertical_box_emit(float *sum, const float *enter, const float *leave, const float *newest, float *out,
                           size_t count, float fraction, float scale) {
    LUX_DISPATCH(lux_vertical_box_emit_avx2(sum, enter, leave, newest, out, count, fraction, scale),
                 lux_vertical_box_emit_portable(sum, enter, leave, newest, out, count, fraction, scale));
}
