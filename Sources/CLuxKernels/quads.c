// Burst merging's reads of Bayer quads (LuxFusion's FrameReader): two raw rows split into the four planes of their
// 2×2 quads, black-subtracted and scaled; 8 lanes wide with AVX2 (chosen at run time), 4 with SSE, 1 for the rest of
// a row and on other CPUs, from one template (quads_rows.h).
#include "CLuxKernels.h"

#pragma clang fp contract(off)

#define LUX_ROWS "quads_rows.h"
#include "lanes_instances.h"

void lux_bayer_quads(const uint16_t *top, const uint16_t *bottom, const float black[4], const float scale[4],
                     float *site0, float *site1, float *site2, float *site3, ptrdiff_t count) {
    LUX_RUN(lux_bayer_quads, 0, count, top, bottom, black, scale, site0, site1, site2, site3);
}
