// PNG row filtering (PNG specification, section 9), so rows can be filtered and compressed on several threads.
#include <stdlib.h>
#include <string.h>

#include "CLuxCodecShims.h"

/// Copies one input row into PNG's byte layout.
static void lux_png_pack_row(const uint8_t *src, int width, int input_channels, int file_channels, int bit_depth,
                             uint8_t *dst) {
    if (bit_depth == 8) {
        if (input_channels == file_channels) {
            memcpy(dst, src, (size_t)width * (size_t)file_channels);
            return;
        }
        for (int x = 0; x < width; x++) {
            for (int c = 0; c < file_channels; c++) dst[c] = src[c];
            src += input_channels;
            dst += file_channels;
        }
        return;
    }
    const uint16_t *s = (const uint16_t *)src;
    for (int x = 0; x < width; x++) {
        for (int c = 0; c < file_channels; c++) {
            uint16_t v = s[c];
            dst[2 * c] = (uint8_t)(v >> 8);
            dst[2 * c + 1] = (uint8_t)v;
        }
        s += input_channels;
        dst += 2 * file_channels;
    }
}

/// The sum of the filtered bytes read as signed values, libpng's measure of how well a row will compress.
static unsigned long lux_png_cost(const uint8_t *row, size_t n) {
    unsigned long sum = 0;
    for (size_t i = 0; i < n; i++) sum += row[i] < 128 ? row[i] : 256 - row[i];
    return sum;
}

static inline uint8_t lux_png_paeth(int a, int b, int c) {
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

/// Filters `row` (with `above`, zeros for the first row) into `out[1...]` with the best of the five filters and
/// stores the filter type in `out[0]`; `trial` holds 4 × n scratch bytes.
static void lux_png_filter_row(const uint8_t *row, const uint8_t *above, size_t n, size_t bpp, uint8_t *out,
                               uint8_t *trial) {
    uint8_t *sub = trial, *up = trial + n, *avg = trial + 2 * n, *paeth = trial + 3 * n;
    for (size_t i = 0; i < bpp && i < n; i++) {
        sub[i] = row[i];
        up[i] = (uint8_t)(row[i] - above[i]);
        avg[i] = (uint8_t)(row[i] - (above[i] >> 1));
        paeth[i] = (uint8_t)(row[i] - above[i]);  // Paeth with a = c = 0 predicts b
    }
    for (size_t i = bpp; i < n; i++) {
        int a = row[i - bpp], b = above[i], c = above[i - bpp];
        sub[i] = (uint8_t)(row[i] - a);
        up[i] = (uint8_t)(row[i] - b);
        avg[i] = (uint8_t)(row[i] - ((a + b) >> 1));
        paeth[i] = (uint8_t)(row[i] - lux_png_paeth(a, b, c));
    }
    const uint8_t *candidates[5] = {row, sub, up, avg, paeth};
    int best = 0;
    unsigned long least = lux_png_cost(row, n);
    for (int f = 1; f < 5; f++) {
        unsigned long cost = lux_png_cost(candidates[f], n);
        if (cost < least) {
            least = cost;
            best = f;
        }
    }
    out[0] = (uint8_t)best;
    memcpy(out + 1, candidates[best], n);
}

int lux_png_filter_rows(const uint8_t *rows, size_t stride, int count, const uint8_t *previous, int width,
                        int input_channels, int file_channels, int bit_depth, uint8_t *out) {
    size_t bpp = (size_t)file_channels * (size_t)(bit_depth / 8);
    size_t n = (size_t)width * bpp;
    // Two packed rows (this one and the one above) and four trial filterings.
    uint8_t *scratch = (uint8_t *)malloc(6 * n);
    if (scratch == NULL) return -1;
    uint8_t *above = scratch, *current = scratch + n, *trial = scratch + 2 * n;
    if (previous != NULL) {
        lux_png_pack_row(previous, width, input_channels, file_channels, bit_depth, above);
    } else {
        memset(above, 0, n);
    }
    for (int y = 0; y < count; y++) {
        lux_png_pack_row(rows + (size_t)y * stride, width, input_channels, file_channels, bit_depth, current);
        lux_png_filter_row(current, above, n, bpp, out + (size_t)y * (n + 1), trial);
        uint8_t *t = above;
        above = current;
        current = t;
    }
    free(scratch);
    return 0;
}
