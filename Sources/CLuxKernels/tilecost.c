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

// The lanes of `n` (1…3, a constant where inlined) horizontally adjacent offsets at once: offset j's other frame
// starts at `alt + j` and its lanes go to `l1 + 8j`, `l2 + 8j`. Each offset's lanes are summed as the one-offset
// loop sums them (row by row, vector by vector); the offsets' independent sums only interleave.
static inline __attribute__((always_inline)) void lux_tile_cost_body(const float *ref, ptrdiff_t ref_stride,
                                                                     const float *alt, ptrdiff_t alt_stride,
                                                                     size_t width, size_t rows, int n, float *l1,
                                                                     float *l2) {
    lux_f8 s1[3] = {{0}, {0}, {0}};
    lux_f8 s2[3] = {{0}, {0}, {0}};
    const lux_u8 magnitude = {0x7FFFFFFFu, 0x7FFFFFFFu, 0x7FFFFFFFu, 0x7FFFFFFFu,
                              0x7FFFFFFFu, 0x7FFFFFFFu, 0x7FFFFFFFu, 0x7FFFFFFFu};
    for (size_t y = 0; y < rows; y++) {
        const float *r = ref + (ptrdiff_t)y * ref_stride;
        const float *a = alt + (ptrdiff_t)y * alt_stride;
        for (size_t k = 0; k < width; k += 8) {
            lux_f8 rv;
            memcpy(&rv, r + k, sizeof rv);
            for (int j = 0; j < n; j++) {
                lux_f8 av;
                memcpy(&av, a + k + j, sizeof av);
                const lux_f8 d = rv - av;
                s1[j] += (lux_f8)((lux_u8)d & magnitude);
                s2[j] += d * d;
            }
        }
    }
    for (int j = 0; j < n; j++) {
        memcpy(l1 + 8 * j, &s1[j], sizeof s1[j]);
        memcpy(l2 + 8 * j, &s2[j], sizeof s2[j]);
    }
}

// The 3×3 offsets around `alt`, three rows of three adjacent offsets.
static inline __attribute__((always_inline)) void lux_tile_cost_grid_body(const float *ref, ptrdiff_t ref_stride,
                                                                          const float *alt, ptrdiff_t alt_stride,
                                                                          size_t width, size_t rows, float *l1,
                                                                          float *l2) {
    for (int dy = -1; dy <= 1; dy++) {
        lux_tile_cost_body(ref, ref_stride, alt + dy * alt_stride - 1, alt_stride, width, rows, 3, l1 + 24 * (dy + 1),
                           l2 + 24 * (dy + 1));
    }
}

static void lux_tile_cost_portable(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                                   size_t width, size_t rows, float *l1, float *l2) {
    lux_tile_cost_body(ref, ref_stride, alt, alt_stride, width, rows, 1, l1, l2);
}

static void lux_tile_cost_grid_portable(const float *ref, ptrdiff_t ref_stride, const float *alt,
                                        ptrdiff_t alt_stride, size_t width, size_t rows, float *l1, float *l2) {
    lux_tile_cost_grid_body(ref, ref_stride, alt, alt_stride, width, rows, l1, l2);
}

#if LUX_X86
__attribute__((target("avx2")))
static void lux_tile_cost_avx2(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                               size_t width, size_t rows, float *l1, float *l2) {
    lux_tile_cost_body(ref, ref_stride, alt, alt_stride, width, rows, 1, l1, l2);
}

__attribute__((target("avx2")))
static void lux_tile_cost_grid_avx2(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                                    size_t width, size_t rows, float *l1, float *l2) {
    lux_tile_cost_grid_body(ref, ref_stride, alt, alt_stride, width, rows, l1, l2);
}
#endif

void lux_tile_cost_lanes(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                         size_t width, size_t rows, float l1[8], float l2[8]) {
    LUX_DISPATCH(lux_tile_cost_avx2(ref, ref_stride, alt, alt_stride, width, rows, l1, l2),
                 lux_tile_cost_portable(ref, ref_stride, alt, alt_stride, width, rows, l1, l2));
}

void lux_tile_cost_grid(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                        size_t width, size_t rows, float l1[72], float l2[72]) {
    LUX_DISPATCH(lux_tile_cost_grid_avx2(ref, ref_stride, alt, alt_stride, width, rows, l1, l2),
                 lux_tile_cost_grid_portable(ref, ref_stride, alt, alt_stride, width, rows, l1, l2));
}
