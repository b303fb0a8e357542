#ifndef CLUX_KERNELS_H
#define CLUX_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Copies `count` bytes from `src` to `dst` (the ranges may overlap).
///
/// An opaque call where Swift would emit a memmove: Swift 6.3's optimiser can end a closure that has a Swift
/// error register with a tail jump to memmove that skips restoring the register, so the caller sees a phantom
/// error and traps (swiftlang/swift#90477, fixed in LLVM after 6.3). Row copies inside closures given to
/// `withUnsafePlane` or `withExtendedLifetime` go through this instead.
void lux_copy_bytes(void *dst, const void *src, size_t count);

/// Adds `rows` rows of an RGB picture `width` × `height` (rows `first_row`… of it) into the box sums of a
/// `target_width` × `target_height` reduction: source pixel (x, y) goes to target pixel
/// (x·target_width / width, min(y·target_height / height, target_height − 1)), whose three sums
/// (`sums[3·i + k]`, i = ty·target_width + tx) gain its samples and whose count (`counts[i]`) gains one.
///
/// Channel `k` of the pixel at column x of row r is `channels[k][r·stride + x·step]`, in elements of
/// `element_size` bytes (1: uint8_t, 2: uint16_t): planes have step 1, interleaved RGBA step 4.
void lux_box_reduce_rows(const void *const channels[3], size_t element_size, size_t step, size_t stride,
                         size_t first_row, size_t rows, size_t width, size_t height, size_t target_width,
                         size_t target_height, uint64_t *sums, uint64_t *counts);

/// Converts `count` interleaved 8-bit RGBA pixels by tables: with `table` holding three blocks of 256 × 4 floats
/// (block k, entry c: the contribution of code c in channel k to the three results, then a pad), each result `v` is
/// `table[4·R + j] + table[1024 + 4·G + j] + table[2048 + 4·B + j]` (summed left to right), encoded as
/// `encode[round(clamp(v, 0, 1) · 65535)]` (ties to even, NaN as 0); alpha is copied. `src` and `dst` may be the
/// same.
void lux_rgba8_convert_table(const uint8_t *src, uint8_t *dst, size_t count, const float *table,
                             const uint8_t *encode);

/// Widens `count` IEEE half-precision values to single precision.
/// Uses F16C when the CPU has it (checked once), a portable bit-exact path otherwise.
void lux_half_to_float(const uint16_t *src, float *dst, size_t count);

/// Narrows `count` single-precision values to half precision, rounding to nearest even
/// (NaN stays NaN, overflow becomes infinity), bit-identical on both paths.
void lux_float_to_half(const float *src, uint16_t *dst, size_t count);

/// Widens `count` values taken alternately from two half rows, `even[j]` at even `j` and `odd[j]` at odd `j`,
/// into `dst` (one pass; F16C when available, bit-identical to the portable path).
void lux_half_alternate_to_float(const uint16_t *even, const uint16_t *odd, float *dst, size_t count);

/// Narrows `count` values `src[i]·scale` (the product rounded to single precision first) to half precision,
/// rounding to nearest even, bit-identical on both paths. With `stream` non-zero the stores are non-temporal
/// (for large destinations not read again soon: their cache lines are not read before being written).
void lux_float_to_half_scaled(const float *src, float scale, uint16_t *dst, size_t count, int stream);

/// Linear interpolation at indexed positions: `out[i] = a[k] + (t[i]·d[k])` with `k = index[i]`, the product
/// rounded before the sum (no fused multiply-add), for `i` in `0..<count`. Every index must lie in
/// `0..<length`, the readable length of `a` and `d`. Runs of indices that stay within eight of each other (a
/// row upsampled by interpolation) load eight values and permute them instead of gathering.
void lux_lerp_indexed(const float *a, const float *d, size_t length, const int32_t *index, const float *t, float *out,
                      size_t count);

/// Widens `count` interleaved half RGBA pixels into four float planes (one pass; F16C when available).
void lux_half4_to_planar(const uint16_t *src, float *r, float *g, float *b, float *a, size_t count);

/// Narrows four float planes into `count` interleaved half RGBA pixels (round to nearest even).
void lux_planar_to_half4(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t count);

/// `lux_planar_to_half4` with non-temporal stores, for output that is not read again soon (large
/// destinations): the destination's cache lines are not read before being written.
void lux_planar_to_half4_streaming(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t count);

/// Symmetric FIR over a float row: `out[k] = w[0]·src[k] + Σ_{t=1…radius} w[t]·(src[k − t·step] + src[k + t·step])`
/// for `k` in `0..<count`, summed in that order (AVX when available; both paths agree bit for bit).
void lux_symmetric_fir(const float *src, ptrdiff_t step, const float *weights, int radius, float *out, size_t count);

/// Adds one, two or four taps of a row filter to `acc`, for `i` in `0..<count`: with `taps` 4,
/// `acc[i] = fma(w3, odd[i + 2], fma(w2, even[i + 2], fma(w1, odd[i], fma(w0, even[i], acc[i]))))`; with 2, the
/// first two steps; with 1, the first (`odd` unused). Each step is a fused multiply-add (`fmaf` on the portable
/// path), so both paths agree bit for bit.
void lux_accumulate_taps(float *acc, const float *even, const float *odd, float w0, float w1, float w2, float w3,
                         int taps, size_t count);

/// Two rows of ``lux_symmetric_fir`` a step apart: `out0` from `src` and `out1` from `src + step`, each bit for bit
/// what the single call gives; with a row stride as `step` the inputs of the vertical pass load once for both rows.
void lux_symmetric_fir_pair(const float *src, ptrdiff_t step, const float *weights, int radius, float *out0,
                            float *out1, size_t count);

/// Multiplies premultiplied colour planes in place by a 3×3 matrix with an alpha term, alpha unchanged:
/// `(r, g, b) ← M·(r, g, b) + (K·a + B)·a`. Each channel is computed as `fma(m2, b, fma(m1, g, fma(m0, r,
/// fma(k, a, bias)·a)))` (one rounding per step; AVX2+FMA when available, `fmaf` otherwise: both agree bit for
/// bit). `coefficients` holds 15 floats: M row-major (9), K (3), B (3). When K and B are zero the alpha term is
/// left out (`fma(m2, b, fma(m1, g, m0·r))`); when M is diagonal each channel keeps only its own term (an infinite
/// channel does not turn the others into NaN through `0·∞`).
void lux_color_matrix(float *r, float *g, float *b, const float *a, const float *coefficients, size_t count);

/// ``lux_color_matrix`` over `count` interleaved half RGBA pixels from `src` into `dst` in one pass (each pixel
/// converted, transformed and narrowed in registers): with `premultiply` the colour is first multiplied by alpha,
/// with `unpremultiply` the result is divided by it (times `1/a`, 0 where a = 0), both skipped where alpha is exactly
/// 1; alpha is copied. `streaming` writes with non-temporal stores (for a destination not read again soon). Both
/// paths agree bit for bit, and with the separate row functions (widen, alpha step, ``lux_color_matrix``, alpha
/// step, narrow).
void lux_half4_color_matrix(const uint16_t *src, uint16_t *dst, const float *coefficients, int premultiply,
                            int unpremultiply, int streaming, size_t count);

/// Splits `count` interleaved float RGBA pixels into float planes; `a` may be NULL (alpha dropped).
void lux_float4_to_planar(const float *src, float *r, float *g, float *b, float *a, size_t count);

/// Joins float planes into `count` interleaved float RGBA pixels; with `a` NULL alpha is 1.
void lux_planar_to_float4(const float *r, const float *g, const float *b, const float *a, float *dst, size_t count);

/// Widens `count` interleaved 8-bit RGBA pixels into float planes (code/255). For BGRA pass `b` and `r` swapped.
void lux_rgba8_to_planar(const uint8_t *src, float *r, float *g, float *b, float *a, size_t count);

/// Narrows float planes into `count` interleaved 8-bit RGBA pixels: clamped to 0…1 (NaN to 0), times 255, rounded
/// to nearest even. For BGRA pass `b` and `r` swapped.
void lux_planar_to_rgba8(const float *r, const float *g, const float *b, const float *a, uint8_t *dst, size_t count);

/// Encodes float planes into `count` interleaved 8-bit RGBA pixels through a transfer-curve table: each colour
/// value is clamped to 0…1 (NaN to 0), times 65535, rounded to nearest even, and looked up in `table` (65536
/// codes); alpha is narrowed as ``lux_planar_to_rgba8`` does.
void lux_planar_to_rgba8_table(const float *r, const float *g, const float *b, const float *a, const uint8_t *table,
                               uint8_t *dst, size_t count);

/// Narrows `count` interleaved float RGBA pixels into 8-bit RGBA exactly as ``lux_planar_to_rgba8`` does.
void lux_float4_to_rgba8(const float *src, uint8_t *dst, size_t count);

/// Widens `count` packed 8-bit RGB pixels into RGBA with alpha 255 (`src` and `dst` must not overlap).
void lux_rgb8_to_rgba8(const uint8_t *src, uint8_t *dst, size_t count);

/// Packs `count` 8-bit RGBA pixels into RGB, dropping alpha (`src` and `dst` must not overlap).
void lux_rgba8_to_rgb8(const uint8_t *src, uint8_t *dst, size_t count);

/// Block matching's inner loop: lane i of `l1` and `l2` receives the sums of |r − a| and (r − a)² over columns
/// i, i + 8, … (`width` a multiple of 8) of `rows` rows, row by row, where row y of the reference starts at
/// `ref + y·ref_stride` and of the other frame at `alt + y·alt_stride` (strides in floats). No fused multiply-add;
/// the AVX2 and portable paths agree bit for bit.
void lux_tile_cost_lanes(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                         size_t width, size_t rows, float l1[8], float l2[8]);

/// Returns 1 when the F16C/AVX2/FMA paths are in use, 0 for the portable paths.
int lux_has_f16c(void);

/// Forces the portable paths on the calling thread only (for tests that compare both, which may run
/// concurrently with other tests); pass 0 to restore detection.
void lux_force_portable(int force);

#ifdef __cplusplus
}
#endif

#endif
