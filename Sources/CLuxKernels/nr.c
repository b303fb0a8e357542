// The row kernels of RAW noise reduction, 8 lanes wide with AVX2 (chosen at run time), 4 with SSE, 1 for the rest
// of a row and on other CPUs: one template (nr_rows.h), the same operations in the same order at every width.
#include "CLuxKernels.h"

#pragma clang fp contract(off)

#define LUX_ROWS "nr_rows.h"
#include "lanes_instances.h"

void lux_nr_taps5(const float *c, const float *a1, const float *b1, const float *a2, const float *b2, float *o,
                  float k0, float k1, float k2, ptrdiff_t start, ptrdiff_t end) {
    LUX_RUN(lux_nr_taps5, start, end, c, a1, b1, a2, b2, o, k0, k1, k2);
}

void lux_nr_shrink(const float *fine, const float *coarse, const float *sigma, float factor, float gain, float *acc,
                   ptrdiff_t count) {
    LUX_RUN(lux_nr_shrink, 0, count, fine, coarse, sigma, factor, gain, acc);
}

void lux_nr_shrink_finest(float *p, const float *coarse, float a, float b, float factor, float gain,
                          ptrdiff_t count) {
    LUX_RUN(lux_nr_shrink_finest, 0, count, p, coarse, a, b, factor, gain);
}

void lux_nr_noise_sigma(const float *signal, float *out, float a, float b, float scale, ptrdiff_t count) {
    LUX_RUN(lux_nr_noise_sigma, 0, count, signal, out, a, b, scale);
}

void lux_nr_correct(float *c, const float *coarse, const float *correction, const float *sigma, float factor,
                    ptrdiff_t count) {
    LUX_RUN(lux_nr_correct, 0, count, c, coarse, correction, sigma, factor);
}

void lux_nr_split(const float *r, const float *g, const float *b, float *y, float *cr, float *cb, ptrdiff_t count) {
    LUX_RUN(lux_nr_split, 0, count, r, g, b, y, cr, cb);
}

void lux_nr_merge(const float *y, const float *cr, const float *cb, float *r, float *g, float *b, ptrdiff_t count) {
    LUX_RUN(lux_nr_merge, 0, count, y, cr, cb, r, g, b);
}

void lux_nr_downsample(const float *s, float *d, ptrdiff_t w, ptrdiff_t h) {
    ptrdiff_t hw = w / 2;
    for (ptrdiff_t k = 0; k < h / 2; k++) {
        const float *a = s + 2 * k * w;
        LUX_RUN(lux_nr_downsample, 0, hw, a, a + w, d + k * hw);
    }
}

void lux_nr_subtract(float *a, const float *b, ptrdiff_t count) { LUX_RUN(lux_nr_subtract, 0, count, a, b); }

void lux_nr_upsample_row(const float *a, const float *b, float *v, float *d, ptrdiff_t hw) {
    LUX_RUN(lux_nr_blend, 0, hw, a, b, v);
    d[0] = v[0];
    d[2 * hw - 1] = v[hw - 1];
    LUX_RUN(lux_nr_upsample_pairs, 1, hw, v, d);
}
