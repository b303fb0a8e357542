// The row kernels of the capture pipeline's fused development (LuxCapture's FusedDevelopment): 8 lanes wide with
// AVX2 (chosen at run time), 4 with SSE, 1 for the rest of a row and on other CPUs, from one template
// (capture_rows.h), the same operations in the same order at every width.
#include "CLuxKernels.h"

#pragma clang fp contract(off)

// The largest float below the roll-off's start (0.6f): `x > LUX_ROLL_OFF_BELOW` is `x ≥ 0.6f`.
#define LUX_ROLL_OFF_BELOW 0x1.333332p-1f

#define LUX_ROWS "capture_rows.h"
#include "lanes_instances.h"

_Static_assert(LUX_ROLL_OFF_BELOW < 0.6f && 0x1.333334p-1f == 0.6f, "the float just below 0.6f");

float lux_capture_load(const uint16_t *samples, ptrdiff_t width, float black, float scale, float *even, float *odd) {
    float peak = 0;
    ptrdiff_t pairs = width / 2;
    LUX_RUN(lux_capture_load, 0, pairs, samples, black, scale, even, odd, &peak);
    if (width & 1) {
        float last = ((float)samples[width - 1] - black) * scale;
        even[pairs] = last;
        peak = last >= peak ? last : peak;
    }
    return peak;
}

void lux_capture_demosaic(const lux_capture_neighbours *neighbours, const float weights[12], float *r, float *g,
                          float *b, ptrdiff_t count) {
    LUX_RUN(lux_capture_demosaic, 0, count, neighbours, weights, r, g, b);
}

void lux_capture_encode(float *values, const lux_unit_encoding *encoding, ptrdiff_t count) {
    LUX_RUN(lux_capture_encode, 0, count, values, encoding);
}
