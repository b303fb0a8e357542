// A C interface to zxing-cpp's reader and writer (its API is C++), so LuxCodecs can call it from Swift. Every C++
// exception stays inside; failures come back as a negative status and a message.
#ifndef CLUXZXING_H
#define CLUXZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Symbologies, as bit flags (zxing-cpp's BarcodeFormat values).
enum {
    LUX_ZX_AZTEC = 1 << 0,
    LUX_ZX_CODABAR = 1 << 1,
    LUX_ZX_CODE39 = 1 << 2,
    LUX_ZX_CODE93 = 1 << 3,
    LUX_ZX_CODE128 = 1 << 4,
    LUX_ZX_DATA_MATRIX = 1 << 7,
    LUX_ZX_EAN8 = 1 << 8,
    LUX_ZX_EAN13 = 1 << 9,
    LUX_ZX_ITF = 1 << 10,
    LUX_ZX_PDF417 = 1 << 12,
    LUX_ZX_QR = 1 << 13,
    LUX_ZX_UPCA = 1 << 14,
    LUX_ZX_UPCE = 1 << 15,
};

// One code found in an image.
typedef struct LuxZXCode {
    int format;              // one LUX_ZX_ flag
    uint8_t *bytes;          // the decoded payload (malloc'ed)
    size_t byteCount;
    int corners[8];          // x, y of the symbol's top-left, top-right, bottom-right and bottom-left corners
    char ecLevel[16];        // the error-correction level as the symbology states it, or ""
    char symbologyIdentifier[8];  // ISO/IEC 15424 "]cm", or ""
    int isMirrored;
} LuxZXCode;

// Reads the codes of the given symbologies (`formats`, LUX_ZX_ flags or-ed) in an 8-bit grayscale image.
// Returns the number of codes, stored in *codes (free with lux_zx_free_codes), or -1 with a message in `error`.
int lux_zx_read(const uint8_t *luminance, int width, int height, int rowStride, int formats, int tryHarder,
                int tryRotate, int maxCount, LuxZXCode **codes, char *error, size_t errorCapacity);

// Frees what lux_zx_read returned.
void lux_zx_free_codes(LuxZXCode *codes, int count);

// Encodes `count` bytes (each taken as one ISO-8859-1 character, so any bytes survive) as a symbol of one format
// with no margin. `eccLevel` is zxing-cpp's 0…8 scale (-1: the format's default). Returns 0 with the module matrix in
// *modules (row-major, 1 = dark; free with lux_zx_free) and its size, or -1 with a message in `error`.
int lux_zx_write(int format, const uint8_t *message, size_t count, int eccLevel, uint8_t **modules, int *width,
                 int *height, char *error, size_t errorCapacity);

// lux_zx_write for Aztec with the symbol's form: `eccPercent` the minimum share of error correction (5…95), `layers`
// 0 to let the encoder choose, −1…−4 for a compact symbol of that many layers, 1…32 for a full one. *compact tells
// which form was written.
int lux_zx_write_aztec(const uint8_t *message, size_t count, int eccPercent, int layers, uint8_t **modules, int *width,
                       int *height, int *compact, char *error, size_t errorCapacity);

// lux_zx_write for PDF417 with its layout: `eccLevel` 0…8, `columns` (data columns, 1…30) and `rows` (3…90), each 0
// to let the encoder choose; `compaction` 0 automatic, 1 text, 2 byte, 3 numeric; `compact` non-zero for compact
// (truncated) PDF417. Each symbol row is 4 modules tall; the start pattern is at the left.
int lux_zx_write_pdf417(const uint8_t *message, size_t count, int eccLevel, int columns, int rows, int compaction,
                        int compact, uint8_t **modules, int *width, int *height, char *error, size_t errorCapacity);

// Frees memory returned by the lux_zx_write functions.
void lux_zx_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
