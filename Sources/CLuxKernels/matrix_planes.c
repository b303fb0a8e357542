// The colour converter's 3×3 matrix over float planes, 8 lanes wide with AVX2 (chosen at run time), 4 with SSE, 1 for
// the rest of a row and on other CPUs: one template (matrix_rows.h), the same operations in the same order at every
// width.
#include "CLuxKernels.h"

#pragma clang fp contract(off)

#define LUX_ROWS "matrix_rows.h"
#include "lanes_instances.h"

void lux_matrix3_planes(const float *m, float *r, float *g, float *b, ptrdiff_t count) {
    LUX_RUN(lux_matrix3_planes, 0, count, m, r, g, b);
}
