// The inner loop of block matching (burst alignment, Live Photo stabilisation): per-lane sums of |r − a| and
// (r − a)² over a tile whose width is a multiple of 8. Lane i holds columns i, i + 8, … of every row, summed in
// row order, as the 8-wide Swift loop it replaces did; the caller reduces the lanes. Both paths do the same
// operations in the same order (no fused multiply-add), so they agree bit for bit.
#include "CLuxKernels.h"
#include <string.h>

#include "x86.h"

#pragma clang fp contract(off)

typedef float lux_f8 __attribute__((vector_size(32)));
typedef uint32_t lux_u8 __attribute__((vector_size(32)));

static inline __attribute__((always_inline)) void lux_tile_cost_body(const float *ref, ptrdiff_t ref_stride,
                                                                     const float *alt, ptrdiff_t alt_stride,
                                                                     size_t width, size_t rows, float *l1,
                                                                     float *l2) {
    lux_f8 s1 = {0};
    lux_f8 s2 = {0};
    const lux_u8 magnitude = {0x7FFFFFFFu, 0x7FFFFFFFu, 0x7FFFFFFFu, 0x7FFFFFFFu,
                              0x7FFFFFFFu, 0x7FFFFFFFu, 0x7FFFFFFFu, 0x7FFFFFFFu};
    for (size_t y = 0; y < rows; y++) {
        const float *r = ref + (ptrdiff_t)y * ref_stride;
        const float *a = alt + (ptrdiff_t)y * alt_stride;
        for (size_t k = 0; k < width; k += 8) {
            lux_f8 rv, av;
            memcpy(&rv, r + k, sizeof rv);
            memcpy(&av, a + k, sizeof av);
            const lux_f8 d = rv - av;
            s1 += (lux_f8)((lux_u8)d & magnitude);
            s2 += d * d;
        }
    }
    memcpy(l1, &s1, sizeof s1);
    memcpy(l2, &s2, sizeof s2);
}

static void lux_tile_cost_portable(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                                   size_t width, size_t rows, float *l1, float *l2) {
    lux_tile_cost_body(ref, ref_stride, alt, alt_stride, width, rows, l1, l2);
}

#if LUX_X86
__attribute__((target("avx2")))
static void lux_tile_cost_avx2(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                               size_t width, size_t rows, float *l1, float *l2) {
    lux_tile_cost_body(ref, ref_stride, alt, alt_stride, width, rows, l1, l2);
}
#endif

void lux_tile_cost_lanes(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                         size_t width, size_t rows, float l1[8], float l2[8]) {
    LUX_DISPATCH(lux_tile_cost_avx2(ref, ref_stride, alt, alt_stride, width, rows, l1, l2),
                 lux_tile_cost_portable(ref, ref_stride, alt, alt_stride, width, rows, l1, l2));
}
