// The inner loop of the Lucas–Kanade steps of burst alignment (LuxFusion's SubpixelRefinement): per row, the sums of
// ∇R·(A − R) over a region, A the other frame sampled bilinearly. The order is that of the 4-wide loop the Swift
// compiler made of the row sum it replaces: lane k (starting at +0 for lane 0, −0 for the others) adds columns k,
// k + 4, … of the whole groups of four in order, the lanes are reduced as (l0 + l2) + (l1 + l3), and the columns
// after the last whole group are added one by one; rows shorter than four are summed one by one from +0. Both
// paths do the same operations in the same order (no fused multiply-add), so they agree bit for bit.
#include "CLuxKernels.h"

#include "x86.h"

#pragma clang fp contract(off)

// The terms of column x of one row: gx·e and gy·e, with e = w00·p0[x] + w10·p0[x + 1] + w01·p1[x] + w11·p1[x + 1]
// − mid[x] (left to right), gx = (mid[x + 1] − mid[x − 1])·½, gy = (down[x] − up[x])·½.
static inline __attribute__((always_inline)) void lux_gradient_terms(const float *up, const float *mid,
                                                                     const float *down, const float *p0,
                                                                     const float *p1, size_t x, float w00, float w10,
                                                                     float w01, float w11, float *tx, float *ty) {
    const float e = w00 * p0[x] + w10 * p0[x + 1] + w01 * p1[x] + w11 * p1[x + 1] - mid[x];
    *tx = (mid[x + 1] - mid[x - 1]) * 0.5f * e;
    *ty = (down[x] - up[x]) * 0.5f * e;
}

// Adds the terms of columns `x..<whole` one by one to the four lanes, column c to lane c & 3 (the 4-wide loop's
// order when `x` is a multiple of four).
static inline __attribute__((always_inline)) void lux_gradient_lanes(const float *up, const float *mid,
                                                                     const float *down, const float *p0,
                                                                     const float *p1, size_t x, size_t whole,
                                                                     float w00, float w10, float w01, float w11,
                                                                     float lx[4], float ly[4]) {
    for (; x < whole; x++) {
        float tx, ty;
        lux_gradient_terms(up, mid, down, p0, p1, x, w00, w10, w01, w11, &tx, &ty);
        lx[x & 3] = lx[x & 3] + tx;
        ly[x & 3] = ly[x & 3] + ty;
    }
}

// The sums of the whole groups of four columns `0..<whole` of one row, reduced to `*sx`, `*sy`.
typedef void (*lux_gradient_groups)(const float *up, const float *mid, const float *down, const float *p0,
                                    const float *p1, size_t whole, float w00, float w10, float w01, float w11,
                                    float *sx, float *sy);

// The rows: each row's whole groups by `groups`, then its other columns one by one; the rows added in order.
static inline __attribute__((always_inline)) void lux_gradient_rows(const float *ref, ptrdiff_t ref_stride,
                                                                    const float *alt, ptrdiff_t alt_stride,
                                                                    size_t width, size_t rows, float w00, float w10,
                                                                    float w01, float w11, lux_gradient_groups groups,
                                                                    float out[2]) {
    float bx = 0.0f;
    float by = 0.0f;
    const size_t whole = width >= 4 ? width & ~(size_t)3 : 0;
    for (size_t y = 0; y < rows; y++) {
        const float *mid = ref + (ptrdiff_t)y * ref_stride;
        const float *up = mid - ref_stride;
        const float *down = mid + ref_stride;
        const float *p0 = alt + (ptrdiff_t)y * alt_stride;
        const float *p1 = p0 + alt_stride;
        float sx = 0.0f;
        float sy = 0.0f;
        if (whole > 0) groups(up, mid, down, p0, p1, whole, w00, w10, w01, w11, &sx, &sy);
        for (size_t x = whole; x < width; x++) {
            float tx, ty;
            lux_gradient_terms(up, mid, down, p0, p1, x, w00, w10, w01, w11, &tx, &ty);
            sx = sx + tx;
            sy = sy + ty;
        }
        bx = bx + sx;
        by = by + sy;
    }
    out[0] = bx;
    out[1] = by;
}

static inline __attribute__((always_inline)) void lux_gradient_groups_portable(const float *up, const float *mid,
                                                                               const float *down, const float *p0,
                                                                               const float *p1, size_t whole,
                                                                               float w00, float w10, float w01,
                                                                               float w11, float *sx, float *sy) {
    float lx[4] = {0.0f, -0.0f, -0.0f, -0.0f};
    float ly[4] = {0.0f, -0.0f, -0.0f, -0.0f};
    lux_gradient_lanes(up, mid, down, p0, p1, 0, whole, w00, w10, w01, w11, lx, ly);
    *sx = (lx[0] + lx[2]) + (lx[1] + lx[3]);
    *sy = (ly[0] + ly[2]) + (ly[1] + ly[3]);
}

static void lux_gradient_mismatch_portable(const float *ref, ptrdiff_t ref_stride, const float *alt,
                                           ptrdiff_t alt_stride, size_t width, size_t rows, float w00, float w10,
                                           float w01, float w11, float out[2]) {
    lux_gradient_rows(ref, ref_stride, alt, alt_stride, width, rows, w00, w10, w01, w11,
                      lux_gradient_groups_portable, out);
}

#if LUX_X86
// The terms of columns x…x + 7 computed eight at a time; each half is added to the four lanes in column order (the
// low half first), which keeps lane k's sum in the order of the 4-wide loop. A last group of four (`whole` not a
// multiple of eight) is added to the lanes one column at a time, as the portable path adds it.
__attribute__((target("avx2"), always_inline)) static inline void lux_gradient_groups_avx2(
    const float *up, const float *mid, const float *down, const float *p0, const float *p1, size_t whole, float w00,
    float w10, float w01, float w11, float *sx, float *sy) {
    const __m256 v00 = _mm256_set1_ps(w00), v10 = _mm256_set1_ps(w10);
    const __m256 v01 = _mm256_set1_ps(w01), v11 = _mm256_set1_ps(w11);
    const __m256 half = _mm256_set1_ps(0.5f);
    __m128 ax = _mm_setr_ps(0.0f, -0.0f, -0.0f, -0.0f);
    __m128 ay = ax;
    size_t x = 0;
    for (; x + 8 <= whole; x += 8) {
        __m256 e = _mm256_mul_ps(v00, _mm256_loadu_ps(p0 + x));
        e = _mm256_add_ps(e, _mm256_mul_ps(v10, _mm256_loadu_ps(p0 + x + 1)));
        e = _mm256_add_ps(e, _mm256_mul_ps(v01, _mm256_loadu_ps(p1 + x)));
        e = _mm256_add_ps(e, _mm256_mul_ps(v11, _mm256_loadu_ps(p1 + x + 1)));
        e = _mm256_sub_ps(e, _mm256_loadu_ps(mid + x));
        const __m256 gx = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(mid + x + 1), _mm256_loadu_ps(mid + x - 1)), half);
        const __m256 gy = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(down + x), _mm256_loadu_ps(up + x)), half);
        const __m256 tx = _mm256_mul_ps(gx, e);
        const __m256 ty = _mm256_mul_ps(gy, e);
        ax = _mm_add_ps(ax, _mm256_castps256_ps128(tx));
        ax = _mm_add_ps(ax, _mm256_extractf128_ps(tx, 1));
        ay = _mm_add_ps(ay, _mm256_castps256_ps128(ty));
        ay = _mm_add_ps(ay, _mm256_extractf128_ps(ty, 1));
    }
    float lx[4], ly[4];
    _mm_storeu_ps(lx, ax);
    _mm_storeu_ps(ly, ay);
    lux_gradient_lanes(up, mid, down, p0, p1, x, whole, w00, w10, w01, w11, lx, ly);
    *sx = (lx[0] + lx[2]) + (lx[1] + lx[3]);
    *sy = (ly[0] + ly[2]) + (ly[1] + ly[3]);
}

__attribute__((target("avx2")))
static void lux_gradient_mismatch_avx2(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                                       size_t width, size_t rows, float w00, float w10, float w01, float w11,
                                       float out[2]) {
    lux_gradient_rows(ref, ref_stride, alt, alt_stride, width, rows, w00, w10, w01, w11, lux_gradient_groups_avx2,
                      out);
}
#endif

void lux_gradient_mismatch(const float *ref, ptrdiff_t ref_stride, const float *alt, ptrdiff_t alt_stride,
                           size_t width, size_t rows, float w00, float w10, float w01, float w11, float out[2]) {
    LUX_DISPATCH(
        lux_gradient_mismatch_avx2(ref, ref_stride, alt, alt_stride, width, rows, w00, w10, w01, w11, out),
        lux_gradient_mismatch_portable(ref, ref_stride, alt, alt_stride, width, rows, w00, w10, w01, w11, out));
}
