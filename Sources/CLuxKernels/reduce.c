// Box reduction of rows into a small picture's sums (see lux_box_reduce_rows in CLuxKernels.h).
#include "CLuxKernels.h"

// The first source column of target column `c`: the least x with x·target_width / width ≥ c.
static size_t lux_box_start(size_t c, size_t width, size_t target_width) {
    return (c * width + target_width - 1) / target_width;
}

// The sum of `p[x·step]` for x in x0..<x1 (8-bit samples summed in 32 bits, 65536 at a time).
static uint64_t lux_box_sum8(const uint8_t *p, size_t step, size_t x0, size_t x1) {
    uint64_t s = 0;
    while (x0 < x1) {
        const size_t end = x1 - x0 > 65536 ? x0 + 65536 : x1;
        uint32_t t = 0;
        for (size_t x = x0; x < end; x++) t += p[x * step];
        s += t;
        x0 = end;
    }
    return s;
}

static uint64_t lux_box_sum16(const uint16_t *p, size_t step, size_t x0, size_t x1) {
    uint64_t s = 0;
    for (size_t x = x0; x < x1; x++) s += p[x * step];
    return s;
}

void lux_box_reduce_rows(const void *const channels[3], size_t element_size, size_t step, size_t stride,
                         size_t first_row, size_t rows, size_t width, size_t height, size_t target_width,
                         size_t target_height, uint64_t *sums, uint64_t *counts) {
    for (size_t r = 0; r < rows; r++) {
        size_t ty = (first_row + r) * target_height / height;
        if (ty > target_height - 1) ty = target_height - 1;
        uint64_t *const row_sums = sums + 3 * ty * target_width;
        uint64_t *const row_counts = counts + ty * target_width;
        for (size_t c = 0; c < target_width; c++) {
            const size_t x0 = lux_box_start(c, width, target_width);
            const size_t x1 = lux_box_start(c + 1, width, target_width);
            for (size_t k = 0; k < 3; k++) {
                row_sums[3 * c + k] +=
                    element_size == 2
                        ? lux_box_sum16((const uint16_t *)channels[k] + r * stride, step, x0, x1)
                        : lux_box_sum8((const uint8_t *)channels[k] + r * stride, step, x0, x1);
            }
            row_counts[c] += x1 - x0;
        }
    }
}
