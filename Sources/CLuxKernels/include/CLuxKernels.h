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

/// Multiplies float planes in place by the row-major 3×3 matrix `m`: `r' = (m₀·r + m₁·g) + m₂·b` and so on, rounded
/// as Swift's scalar expression (no fused multiply-add) at every width of ``lux_lanes``.
void lux_matrix3_planes(const float *m, float *r, float *g, float *b, ptrdiff_t count);

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

/// One extended-box pass over a zero-padded row of `n` RGBA float pixels (`src` readable from pixel −r − 1 to
/// n + r): `dst[x] = (Σ src[x − r … x + r] + fraction·(src[x − r − 1] + src[x + r + 1]))·scale`, as four running sums
/// over quarters of the row (each window summed from zero in pixel order; products rounded before sums).
void lux_extended_box_rgba(const float *src, float *dst, ptrdiff_t n, ptrdiff_t r, float fraction, float scale);

/// A vertical extended-box pass (LuxScene's VerticalBlur) moving its running sum by one row without an output:
/// `sum[i] += enter[i] − leave[i]` for `i` in `0..<count`. AVX2 and portable paths give the same bits.
void lux_vertical_box_slide(float *sum, const float *enter, const float *leave, size_t count);

/// A vertical extended-box pass moving its running sum by one row and writing an output row: `t = (sum[i] + enter[i])
/// − leave[i]`, `sum[i] = t`, `out[i] = (t + fraction·(leave[i] + newest[i]))·scale` (no fused multiply-add). The
/// rows must not overlap; AVX2 and portable paths give the same bits.
void lux_vertical_box_emit(float *sum, const float *enter, const float *leave, const float *newest, float *out,
                           size_t count, float fraction, float scale);

/// The halftone screens' wave `out[i] = ½ + ½·cos(2π·t[i])` for `i` in `0..<count`: `t` reduced to its distance
/// from the nearest integer, then to a quarter period by symmetry, and the cosine's Taylor series to x¹² (error
/// below 1e-8 before rounding; within a few float ulps of libm's `cosf`). `t` may be `out`. AVX2 and portable paths
/// give the same bits.
void lux_cos_wave(const float *t, float *out, size_t count);

/// The vertical pass of resamplers: `out[k] = Σ_t weights[t] · rows[t][k]` for `k` in `0..<count`, each sum
/// started from zero and taken in tap order (products rounded before the sum), in blocks of 32 floats.
void lux_weighted_rows(const float *const *rows, const float *weights, size_t taps, float *out, size_t count);

/// The horizontal pass of resamplers over RGBA pixels: pixel `x` of `out` is `Σ_t weights[x·taps + t] ·
/// src[4·(first[x] + t) …]`, four channels, started from zero in tap order (products rounded before the sum).
void lux_weighted_pixels(const float *src, const ptrdiff_t *first, const float *weights, size_t taps, float *out,
                         size_t count);

/// Widens `count` bytes into floats (the codes themselves, 0…255): the source rows of 8-bit resamplers.
void lux_widen_bytes(const uint8_t *src, float *dst, size_t count);

/// Narrows `count` floats into bytes as ⌊min(max(v + ½, 0), 255)⌋ (half-way values round up): the output rows of
/// 8-bit resamplers, whose sums are in codes.
void lux_narrow_rounding_up(const float *src, uint8_t *dst, size_t count);

/// Bilinear samples of an interleaved RGBA `Float` region (`width` × `height` pixels from column `min_x`, row `min_y`;
/// rows `row_stride` floats apart) at the positions `(xs[i], ys[i])`, pixel centres at `k + 0.5`: with
/// u = x − 0.5, fu = ⌊u⌋ clamped to ±1e9 and a = u − fu (v, fv, b likewise), top = p00 + (p10 − p00)·a,
/// bottom = p01 + (p11 − p01)·a and the sample top + (bottom − top)·b, four floats at `out + 4·i`. Positions whose
/// four pixels are not all in the region are left alone: their indices go to `outside` (room for `count`), and the
/// return value is how many. No fused multiply-add; the AVX2 and portable paths agree bit for bit.
size_t lux_bilinear_samples(const float *base, ptrdiff_t row_stride, ptrdiff_t min_x, ptrdiff_t min_y,
                            ptrdiff_t width, ptrdiff_t height, const float *xs, const float *ys, size_t count,
                            float *out, int32_t *outside);

/// Block matching's inner loop: lane i of `l1` and `l2` receives the sums of |r − a| and (r − a)² over columns
/// i, i + 8, … (`width` a multiple of 8) of `rows` rows, row by row, where row y of the reference starts at
/// `ref + y·ref_stride` and of the other frame at `alt + y·alt_stride` (strides in floats). No fused multiply-add;
/// the AVX2 and portable paths agree bit for bit.
void lux_tile_cost_lanes(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                         size_t width, size_t rows, float l1[8], float l2[8]);

/// ``lux_tile_cost_lanes`` at the 3×3 offsets around `alt` at once: offset (dx, dy), dx and dy in −1…1, compares
/// `ref` with `alt + dy·alt_stride + dx` and puts its lanes at `l1 + 8·k`, `l2 + 8·k` with k = 3·(dy + 1) + dx + 1
/// (every offset inside the other frame). Each offset's lanes are the bits ``lux_tile_cost_lanes`` gives; the nine
/// independent sums interleave, which keeps the vector units busy where one sum waits on its additions.
void lux_tile_cost_grid(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                        size_t width, size_t rows, float l1[72], float l2[72]);

/// The Lucas–Kanade step's sums of burst alignment: `out` receives Σ gx·e and Σ gy·e over `rows` rows of `width`
/// columns, where row y of the reference R starts at `ref + y·ref_stride` and the other frame's sample at
/// `alt + y·alt_stride` (strides in floats); e = w00·A[y][x] + w10·A[y][x+1] + w01·A[y+1][x] + w11·A[y+1][x+1] − R[y][x],
/// gx = (R[y][x+1] − R[y][x−1])·½, gy = (R[y+1][x] − R[y−1][x])·½ (R is read one pixel around the region, A one pixel
/// right and below). Each row is summed as a 4-wide loop does — lane k adds columns k, k + 4, … of the whole groups of
/// four, the lanes are reduced as (l0 + l2) + (l1 + l3), the remaining columns are added one by one — and the rows in
/// order. No fused multiply-add; the AVX2 and portable paths agree bit for bit.
void lux_gradient_mismatch(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                           size_t width, size_t rows, float w00, float w10, float w01, float w11, float out[2]);

/// Reads `count` Bayer quads from two raw rows (burst merging's frame reads): site0[i] = (top[2i] − black[0])·scale[0],
/// site1[i] = (top[2i + 1] − black[1])·scale[1], site2[i] = (bottom[2i] − black[2])·scale[2], site3[i] =
/// (bottom[2i + 1] − black[3])·scale[3]. Every width of ``lux_lanes`` gives the same bits as Swift's scalar code.
void lux_bayer_quads(const uint16_t *top, const uint16_t *bottom, const float black[4], const float scale[4],
                     float *site0, float *site1, float *site2, float *site3, ptrdiff_t count);

/// Over `pairs` sample pairs of a Bayer row (`src[2i]`, `src[2i + 1]`): `out` = {sum of the even samples, sum of the
/// odd ones, how many even samples are at least `clip`, how many odd ones} (the 3A statistics' cell sums; sums of up
/// to 2¹⁶ pairs of 16-bit samples cannot overflow).
void lux_pair_sums(const uint16_t *src, size_t pairs, uint16_t clip, uint32_t out[4]);

/// Exposure fusion's weights with the default exponents (LuxFusion's MertensBlender): `weight[i]` (the pixel's
/// contrast on entry) becomes contrast × saturation × well-exposedness + 1e-12, saturation the standard deviation of
/// r, g and b, well-exposedness 2^(k · Σ(c − mean)²) (k = −log2(e)/2σ²); the Swift loop's bits on both paths.
void lux_mertens_weights(const float *r, const float *g, const float *b, float *weight, size_t count, float mean,
                         float k);

/// The simulated sensor's constants for one frame (LuxCapture's `SensorReadout.Parameters`).
typedef struct {
    float electrons_per_unit;  ///< photo-electrons per unit of radiance over the exposure
    float dark_electrons;      ///< dark-current electrons over the exposure
    float full_well;           ///< electrons at which a pixel clips
    float codes_per_electron;  ///< ADC codes per electron at the frame's ISO
    float read_noise;          ///< read noise in ADC codes
    float black_level;
    int32_t white_level;
    uint32_t seed_a;  ///< shot-noise hashes
    uint32_t seed_b;  ///< read-noise hashes
    uint32_t seed_c;  ///< Poisson uniforms
} lux_sensor_parameters;

/// Reads out one row of `count` pixels of CFA radiance into 14-bit codes; pixel x's random numbers are hashes of
/// (base + x)·0x9E3779B9 with the three seeds. For each pixel: λ = max(radiance·electrons_per_unit + dark, 0);
/// electrons = λ + √λ·z₁ clamped to 0…full_well, z₁ and z₂ the centred, scaled byte sums of two hashes;
/// code = round(black + gain·electrons + read_noise·z₂) clipped to 0…white. Pixels with λ < 24 then take an exact
/// Poisson count (CDF inversion of a uniform from the third hash, in chunks of 64, ≤ 160 terms) in place of
/// λ + √λ·z₁. `scratch` has room for ``lux_sensor_scratch_count``(count) floats. No fused multiply-add: the AVX2 and
/// portable paths give the bits of the Swift reference in the tests.
void lux_sensor_row(const float *radiance, uint16_t *out, size_t count, uint32_t base, const lux_sensor_parameters *p,
                    float *scratch);

/// The floats of scratch `lux_sensor_row` needs for rows of `count` pixels: 5 rows of `count` rounded up to 16.
static inline size_t lux_sensor_scratch_count(size_t count) { return 5 * ((count + 15) & ~(size_t)15); }

/// Loads one CFA row of `width` 14-bit samples for the capture pipeline's fused development (LuxCapture's
/// FusedDevelopment): even[i] = (samples[2i] − black)·scale and odd[i] = (samples[2i + 1] − black)·scale, for the
/// ⌈width/2⌉ even and ⌊width/2⌋ odd columns. Returns the largest value loaded, or 0 when all are below 0.
float lux_capture_load(const uint16_t *samples, ptrdiff_t width, float black, float scale, float *even, float *odd);

/// The neighbours of one column parity's sites in three loaded CFA rows (`lux_capture_demosaic`): index i of each
/// array is the site's centre, its left and right neighbours in the row, its upper and lower ones, and its four
/// diagonal neighbours.
typedef struct {
    const float *centre, *left, *right, *up, *down, *up_left, *up_right, *down_left, *down_right;
} lux_capture_neighbours;

/// The bilinear demosaic and colour matrix of `count` sites of one column parity: with h = left + right,
/// v = up + down and d = (up_left + up_right) + (down_left + down_right),
/// r = ((w₀·centre + w₁·h) + w₂·v) + w₃·d, and g and b the same with w₄…w₇ and w₈…w₁₁. No fused multiply-add: every
/// width of ``lux_lanes`` gives the bits of the Swift reference in the tests.
void lux_capture_demosaic(const lux_capture_neighbours *neighbours, const float weights[12], float *r, float *g,
                          float *b, ptrdiff_t count);

/// A transfer function's encoding over 0…1 as LuxCapture's UnitEncodingPolynomial fits it: below `knee`,
/// slope·x + intercept; from it, the polynomial Σ c[k]·uᵏ (Horner, highest first) in u = x^¼·u_scale + u_offset.
typedef struct {
    float knee, slope, intercept, u_scale, u_offset;
    float c[7];
} lux_unit_encoding;

/// Encodes `count` linear values in place after the fused development's highlight roll-off: x ↦ max(x, 0), then
/// from 0.6 on 0.6 + (0.4·(1 − 1/(1 + (x − 0.6)·1.4)))·1.4, at most 1; then `encoding`. No fused multiply-add: every
/// width of ``lux_lanes`` gives the bits of the Swift reference in the tests.
void lux_capture_encode(float *values, const lux_unit_encoding *encoding, ptrdiff_t count);

/// One row segment's bilinear lookups in a three-plane float texture (LuxScene's image paint).
typedef struct {
    const float *top[3];     ///< the planes' texel rows at or above the sample row
    const float *bottom[3];  ///< the planes' texel rows below it (the same rows at the bottom edge)
    float fy;                ///< the weight of `bottom`
    ptrdiff_t width;         ///< texels per row
    const float *depth;      ///< the depth plane's nearest row, or NULL for no depth test
    float depth_min, depth_max;
    float x, step;                 ///< scene x of the first pixel centre, scene units per pixel
    float origin, texels_per_unit; ///< the texture's scene x at texel edge 0, texels per scene unit
    float matrix[9];               ///< row-major 3 × 3 applied to each lookup
} lux_texture_row_source;

/// Bilinear lookups for pixels `0..<count`: u = ((x + i·step) − origin)·texels_per_unit − 0.5, clamped to
/// 0…width − 1 for the lookup; a pixel with u ≤ −1 or u ≥ width, or whose nearest depth texel lies outside
/// depth_min…depth_max, gets 0 in `cov`, `c0`, `c1` and `c2`; any other keeps its `cov` and gets the matrix times
/// its lookup (sums left to right, no fused multiply-add). The AVX2 path (gathers) and the portable one agree bit
/// for bit.
void lux_texture_row(const lux_texture_row_source *source, ptrdiff_t count, float *cov, float *c0, float *c1,
                     float *c2);

/// Returns 1 when the F16C/AVX2/FMA paths are in use, 0 for the portable paths.
int lux_has_f16c(void);

/// Forces the portable paths on the calling thread only (for tests that compare both, which may run
/// concurrently with other tests); pass 0 to restore detection.
void lux_force_portable(int force);

/// The vector width of the lane-generic row kernels (`lux_rcd_*`, `lux_nr_*`, `lux_sharpen_*`,
/// `lux_linearize_u16`, the highlight, gamut and tone kernels, `lux_capture_*`, `lux_bayer_quads`): 8 with AVX2, 4 on other x86 CPUs, 1 elsewhere, or what ``lux_force_lanes`` set on the
/// calling thread. Every width gives the same bits.
int lux_lanes(void);

/// Forces the width of the lane-generic row kernels on the calling thread only (for tests that compare the widths):
/// 1 (scalar), 4 (SSE, x86 only) or 8 (AVX2: only when the CPU has it, ``lux_lanes`` 8 unforced); 0 restores
/// detection.
void lux_force_lanes(int lanes);

// RCD demosaicing's row kernels (LuxRAW's RCDDemosaic: its doc comments give the formulas). Each computes indices
// `start..<end` of a row of split planes: `s`/`*_s` is a row seen from the sites of one column parity, `t`/`*_t` its
// other half (so column x − 1 of site i is t[i − 1], x + 1 is t[i]); `w` is the row stride of the working planes,
// `os` of the output planes. Every operation rounds as Swift's scalar code did (no fused multiply-add), so every
// width of ``lux_lanes`` gives the same bits.

/// `d[i] = v²`, `v = (p[i−3w] − p[i−w] − p[i+w] + p[i+3w]) − 3(p[i−2w] + p[i+2w]) + 6p[i]`.
void lux_rcd_vertical_hpf(const float *p, ptrdiff_t w, float *d, ptrdiff_t start, ptrdiff_t end);
/// `d[i] = v²`, `v = (t[i−2] − t[i−1] − t[i] + t[i+1]) − 3(s[i−1] + s[i+1]) + 6s[i]`.
void lux_rcd_horizontal_hpf(const float *s, const float *t, float *d, ptrdiff_t start, ptrdiff_t end);
/// `d[i] = V / (V + H)`, `V = max(ε², r0[i] + r1[i] + r2[i])`, `H = max(ε², ht[i−1] + hs[i] + ht[i])`.
void lux_rcd_direction(const float *r0, const float *r1, const float *r2, const float *hs, const float *ht, float *d,
                       float epssq, ptrdiff_t start, ptrdiff_t end);
/// The 1-2-1 ⊗ 1-2-1 low-pass of the mosaic at the sites.
void lux_rcd_low_pass(const float *s, const float *t, float *d, ptrdiff_t w, ptrdiff_t start, ptrdiff_t end);
/// The soft direction: `central[i]`, or the mean of `above[i−1], above[i], below[i−1], below[i]` where further
/// from ½.
void lux_rcd_discrimination(const float *above, const float *central, const float *below, float *d, ptrdiff_t start,
                            ptrdiff_t end);
/// Green at red/blue sites (RCD step 3).
void lux_rcd_green(const float *s, const float *t, const float *low_pass, const float *disc, float *g, ptrdiff_t w,
                   ptrdiff_t start, ptrdiff_t end);
/// The squared diagonal high-passes (P = NW–SE into `dp`, Q = NE–SW into `dq`) at red/blue sites.
void lux_rcd_diagonal_hpf(const float *s, const float *t, float *dp, float *dq, ptrdiff_t w, ptrdiff_t start,
                          ptrdiff_t end);
/// `d[i] = P / (P + Q)`, `P = max(ε², pa[i−1] + pc[i] + pb[i])`, `Q = max(ε², qa[i] + qc[i] + qb[i−1])`.
void lux_rcd_diagonal_direction(const float *pa, const float *pc, const float *pb, const float *qa, const float *qc,
                                const float *qb, float *d, float epssq, ptrdiff_t start, ptrdiff_t end);
/// Red at blue sites or blue at red sites into `ms` (RCD step 4.3); `dir_same`/`dir_other` the P/Q direction row.
void lux_rcd_diagonal_color(float *ms, const float *mt, const float *gs, const float *gt, const float *dir_same,
                            const float *dir_other, ptrdiff_t w, ptrdiff_t os, ptrdiff_t start, ptrdiff_t end);
/// Red and blue at green sites (RCD step 4.4).
void lux_rcd_cardinal_color(float *rs, const float *rt, float *bs, const float *bt, const float *gs, const float *gt,
                            const float *disc, ptrdiff_t os, ptrdiff_t start, ptrdiff_t end);
/// Refinement 5.1, in place: green at red/blue sites from the colour difference with the site's own colour.
void lux_rcd_refine_green(const float *own_s, const float *own_t, float *gs, const float *gt, const float *disc,
                          ptrdiff_t os, ptrdiff_t start, ptrdiff_t end);
/// Refinement 5.2: the row's colour (`rs`) and the column's (`cs`) at green sites.
void lux_rcd_refine_at_green(float *rs, const float *rt, float *cs, const float *gs, const float *gt, ptrdiff_t os,
                             ptrdiff_t start, ptrdiff_t end);
/// Refinement 5.3, in place: blue at red sites (`red_row` 1) or red at blue sites (0) from R − B.
void lux_rcd_refine_red_blue(float *rs, const float *rt, float *bs, const float *bt, const float *disc, int red_row,
                             ptrdiff_t os, ptrdiff_t start, ptrdiff_t end);
/// A row `p` of `w` columns into split layout at `d`: its even columns, then its odd ones.
void lux_rcd_split(const float *p, float *d, ptrdiff_t w);
/// The inverse of ``lux_rcd_split`` for columns `x0..<x0+n` of a split row `p`, `w` columns wide: `d[j]` is column
/// `x0 + j`.
void lux_rcd_interleave(const float *p, ptrdiff_t w, ptrdiff_t x0, ptrdiff_t n, float *d);
/// `a[i] = b[i] = p[i]` for `start..<end`.
void lux_rcd_copy2(const float *p, float *a, float *b, ptrdiff_t start, ptrdiff_t end);

// Noise reduction's row kernels (LuxRAW's NoiseReduction and Wavelet: their doc comments give the formulas), over
// `start..<end` or `0..<count`; as the RCD kernels, every width of ``lux_lanes`` gives the same bits as Swift's scalar
// code. `shrink(d, t)` below is `d − min(max(d, −t), t)`.

/// `o[i] = (k0·c[i] + k1·(a1[i] + b1[i])) + k2·(a2[i] + b2[i])`: the à-trous B3 smoothing taps.
void lux_nr_taps5(const float *c, const float *a1, const float *b1, const float *a2, const float *b2, float *o,
                  float k0, float k1, float k2, ptrdiff_t start, ptrdiff_t end);
/// `acc[i] += gain · shrink(fine[i] − coarse[i], factor · sigma[i])`.
void lux_nr_shrink(const float *fine, const float *coarse, const float *sigma, float factor, float gain, float *acc,
                   ptrdiff_t count);
/// `p[i] = c + gain · shrink(p[i] − c, factor · √max(a·c + b, b, 0))` with `c = coarse[i]`.
void lux_nr_shrink_finest(float *p, const float *coarse, float a, float b, float factor, float gain,
                          ptrdiff_t count);
/// `out[i] = scale · √max(a·signal[i] + b, b, 0)`; `out` may be `signal`.
void lux_nr_noise_sigma(const float *signal, float *out, float a, float b, float scale, ptrdiff_t count);
/// `c[i] = ((coarse[i] + correction[i]) + f) − min(max(f, −t), t)` with `f = c[i] − coarse[i]`,
/// `t = factor · sigma[i]`.
void lux_nr_correct(float *c, const float *coarse, const float *correction, const float *sigma, float factor,
                    ptrdiff_t count);
/// `y = 0.25·((r + 2g) + b)`, `cr = r − g`, `cb = b − g`.
void lux_nr_split(const float *r, const float *g, const float *b, float *y, float *cr, float *cb, ptrdiff_t count);
/// `g = y − 0.25·(cr + cb)`, `r = cr + g`, `b = cb + g`.
void lux_nr_merge(const float *y, const float *cr, const float *cb, float *r, float *g, float *b, ptrdiff_t count);
/// The 2×2 means of a `w × h` plane `s` (both even) into the `w/2 × h/2` plane `d`:
/// `0.25·(((a[2i] + a[2i+1]) + b[2i]) + b[2i+1])` with `a`, `b` two rows of `s`.
void lux_nr_downsample(const float *s, float *d, ptrdiff_t w, ptrdiff_t h);
/// `a[i] −= b[i]`.
void lux_nr_subtract(float *a, const float *b, ptrdiff_t count);
/// A row of the bilinear 2× upsampling of a plane `hw` wide (half-pixel centres, edges clamped) from its rows `a`
/// (nearer, weight ¾) and `b` (¼): `v[i] = 0.75·a[i] + 0.25·b[i]` (`hw` values of scratch), then `d[0] = v[0]`,
/// `d[2hw − 1] = v[hw − 1]`, and for `0 < i < hw` `d[2i − 1] = 0.75·v[i − 1] + 0.25·v[i]`,
/// `d[2i] = 0.75·v[i] + 0.25·v[i − 1]`.
void lux_nr_upsample_row(const float *a, const float *b, float *v, float *d, ptrdiff_t hw);

// RAW sharpening's and linearisation's row kernels (LuxRAW's Sharpening and SensorLinearization), over `0..<count`;
// as the RCD kernels, every width of ``lux_lanes`` gives the same bits as Swift's scalar code.

/// `out[i] = t[0]·c[i] + t[1]·(c[i − step] + c[i + step]) + … + t[radius]·(…)`, each tap added in turn (no fused
/// multiply-add).
void lux_sharpen_blur(const float *c, ptrdiff_t step, const float *taps, int radius, float *out, ptrdiff_t count);
/// `luma[i] = (wr·r[i] + wg·g[i]) + wb·b[i]`.
void lux_sharpen_luma(const float *r, const float *g, const float *b, float wr, float wg, float wb, float *luma,
                      ptrdiff_t count);
/// The unsharp mask: `y′ = max(y + amount·shrink(y − blurred, threshold), 0)` with `y = luma[i]`, then each colour
/// `c·f + add` with `f = 1, add = y′ − y` where `y ≤ 1e-4` and `f = y′/y, add = 0` elsewhere.
void lux_sharpen_mask(const float *r, const float *g, const float *b, const float *luma, const float *blurred,
                      float amount, float threshold, float *red, float *green, float *blue, ptrdiff_t count);
/// `out[i] = (s[i] − black) · scale` with the `_even` values at even `i` and the `_odd` ones at odd `i`.
void lux_linearize_u16(const uint16_t *s, float black_even, float black_odd, float scale_even, float scale_odd,
                       float *out, ptrdiff_t count);

// RAW highlight, gamut and tone row kernels (LuxRAW's HighlightRecovery, HighlightDefringe, GamutMapping and
// ToneCurve), over `0..<count`; every width of ``lux_lanes`` gives the same bits as Swift's scalar code (`max`/`min`
// as Swift's).

/// Whether `max(r[i], max(g[i], b[i])) > level` at some `i` (1) or not (0); the scan stops at the first.
int lux_highlight_exceeds(const float *r, const float *g, const float *b, float level, ptrdiff_t count);
/// `out[i] = max(r[i]·kr, max(g[i]·kg, b[i]·kb))`; returns whether any exceeds `level` (1) or not (0).
int lux_defringe_levels(const float *r, const float *g, const float *b, float kr, float kg, float kb, float level,
                        float *out, ptrdiff_t count);
/// In place, with `lo = min(r, min(g, b))` and `Y = (kr·r + kg·g) + kb·b`: `c = base + t·(c − base)` for each
/// channel, `t = lo ≥ 0 ? 1 : (Y > 0 ? Y / (Y − lo) : 0)`, `base = lo ≥ 0 || Y > 0 ? Y : 0`.
void lux_gamut_map(float *r, float *g, float *b, float kr, float kg, float kb, ptrdiff_t count);
/// In place: each channel times `(1 − k) + k·(1 / (1 + u))·(2.531n + 0.855)` with `n = max(max(r, g), max(b, 1e-9))`
/// and `u = n·(2.531n + 0.855)` (the base tone curve's `T(n)/n`, blended by `k`).
void lux_tone_base(float *r, float *g, float *b, float k, ptrdiff_t count);

/// Row `y` (`out_width` pixels) of the bilinear affine warp of interleaved 8-bit RGBA `src` (`width` × `height`,
/// rows `src_stride` bytes apart) into `dst`: output pixel centre `(x + ½, y + ½)` reads the source at
/// `inverse · (x + ½, y + ½) − (½, ½)` (`inverse` = a, b, c, d, tx, ty: `x′ = a·x + c·y + tx`, `y′ = b·x + d·y + ty`),
/// rounded to 1/256 pixel, its four neighbours clamped into the image and blended in the encoded 8-bit values
/// (each of the three blends rounded to nearest). Returns 0, writing nothing, for images of 16 000 pixels or more
/// on a side or of 2 GiB or more, 1 otherwise.
int lux_warp_rgba8_row(const uint8_t *src, ptrdiff_t src_stride, ptrdiff_t width, ptrdiff_t height, uint8_t *dst,
                        ptrdiff_t out_width, ptrdiff_t y, const double inverse[6]);

#ifdef __cplusplus
}
#endif

#endif
