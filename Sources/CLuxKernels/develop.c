// The row kernels of RAW linearisation, sharpening, highlight scans, gamut mapping and the base tone curve, 8 lanes wide with AVX2 (chosen at run time), 4 with SSE, 1 for
// the rest of a row and on other CPUs: one template (develop_rows.h), the same operations in the same order at every
// width.
#include "CLuxKernels.h"

#pragma clang fp contract(off)

#define LUX_ROWS "develop_rows.h"
#include "lanes_instances.h"

void lux_sharpen_blur(const float *c, ptrdiff_t step, const float *taps, int radius, float *out, ptrdiff_t count) {
    LUX_RUN(lux_sharpen_blur, 0, count, c, step, taps, radius, out);
}

void lux_sharpen_luma(const float *r, const float *g, const float *b, float wr, float wg, float wb, float *luma,
                      ptrdiff_t count) {
    LUX_RUN(lux_sharpen_luma, 0, count, r, g, b, wr, wg, wb, luma);
}

void lux_sharpen_mask(const float *r, const float *g, const float *b, const float *luma, const float *blurred,
                      float amount, float threshold, float *red, float *green, float *blue, ptrdiff_t count) {
    LUX_RUN(lux_sharpen_mask, 0, count, r, g, b, luma, blurred, amount, threshold, red, green, blue);
}

void lux_linearize_u16(const uint16_t *s, float black_even, float black_odd, float scale_even, float scale_odd,
                       float *out, ptrdiff_t count) {
    LUX_RUN(lux_linearize_u16, 0, count, s, black_even, black_odd, scale_even, scale_odd, out);
}

int lux_highlight_exceeds(const float *r, const float *g, const float *b, float level, ptrdiff_t count) {
    int found = 0;
    LUX_RUN(lux_highlight_exceeds, 0, count, r, g, b, level, &found);
    return found;
}

int lux_defringe_levels(const float *r, const float *g, const float *b, float kr, float kg, float kb, float level,
                        float *out, ptrdiff_t count) {
    int found = 0;
    LUX_RUN(lux_defringe_levels, 0, count, r, g, b, kr, kg, kb, level, out, &found);
    return found;
}

void lux_gamut_map(float *r, float *g, float *b, float kr, float kg, float kb, ptrdiff_t count) {
    LUX_RUN(lux_gamut_map, 0, count, r, g, b, kr, kg, kb);
}

void lux_tone_base(float *r, float *g, float *b, float k, ptrdiff_t count) {
    LUX_RUN(lux_tone_base, 0, count, r, g, b, k);
}
