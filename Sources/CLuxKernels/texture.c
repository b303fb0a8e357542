// Bilinear texture lookups along a row segment (LuxScene's ShapeKernel.sampleImageRow), eight pixels at a time with
// AVX2 gathers when the CPU has them. Both paths compute every pixel with the operations of the scalar loop, in its
// order and without fused multiply-add, so they agree bit for bit with it and with each other.
#include "CLuxKernels.h"

#include "x86.h"

#pragma clang fp contract(off)

static void lux_texture_row_portable(const lux_texture_row_source *s, ptrdiff_t first, ptrdiff_t n, float *cov,
                                     float *c0, float *c1, float *c2) {
    // Locals, so the stores below need not reload the source's fields.
    const ptrdiff_t w = s->width;
    const float fw = (float)w, fy = s->fy, x = s->x, step = s->step, origin = s->origin, tpu = s->texels_per_unit;
    const float *const a0 = s->top[0], *const a1 = s->top[1], *const a2 = s->top[2];
    const float *const b0 = s->bottom[0], *const b1 = s->bottom[1], *const b2 = s->bottom[2];
    const float *const depth = s->depth;
    const float dmin = s->depth_min, dmax = s->depth_max;
    float m[9];
    for (int k = 0; k < 9; k++) m[k] = s->matrix[k];
    for (ptrdiff_t i = first; i < n; i++) {
        const float u = ((x + (float)i * step) - origin) * tpu - 0.5f;
        float xf = 0.0f >= u ? 0.0f : u;
        xf = fw - 1.0f < xf ? fw - 1.0f : xf;
        int inside = u > -1.0f && u < fw;
        if (inside && depth) {
            const float d = depth[(ptrdiff_t)(xf + 0.5f)];
            inside = dmin <= d && d <= dmax;
        }
        if (!inside) {
            cov[i] = 0;
            c0[i] = 0;
            c1[i] = 0;
            c2[i] = 0;
            continue;
        }
        const ptrdiff_t x0 = (ptrdiff_t)xf;
        const ptrdiff_t x1 = w - 1 < x0 + 1 ? w - 1 : x0 + 1;
        const float fx = xf - (float)x0;
        const float t0 = a0[x0] + (a0[x1] - a0[x0]) * fx;
        const float t1 = a1[x0] + (a1[x1] - a1[x0]) * fx;
        const float t2 = a2[x0] + (a2[x1] - a2[x0]) * fx;
        const float k0 = t0 + ((b0[x0] + (b0[x1] - b0[x0]) * fx) - t0) * fy;
        const float k1 = t1 + ((b1[x0] + (b1[x1] - b1[x0]) * fx) - t1) * fy;
        const float k2 = t2 + ((b2[x0] + (b2[x1] - b2[x0]) * fx) - t2) * fy;
        c0[i] = (m[0] * k0 + m[1] * k1) + m[2] * k2;
        c1[i] = (m[3] * k0 + m[4] * k1) + m[5] * k2;
        c2[i] = (m[6] * k0 + m[7] * k1) + m[8] * k2;
    }
}

#if LUX_X86
// `inside` and depth_min ≤ d ≤ depth_max.
__attribute__((target("avx2"))) static inline __m256 lux_texture_depth_test(__m256 inside, __m256 d, float lo, float hi) {
    return _mm256_and_ps(inside, _mm256_and_ps(_mm256_cmp_ps(_mm256_set1_ps(lo), d, _CMP_LE_OQ),
                                               _mm256_cmp_ps(d, _mm256_set1_ps(hi), _CMP_LE_OQ)));
}

// The bilinear blend of texels a0 a1 (upper row) and b0 b1 (lower row), as the scalar loop computes it.
__attribute__((target("avx2"))) static inline __m256 lux_texture_bilinear(__m256 a0, __m256 a1, __m256 b0, __m256 b1,
                                                                           __m256 fx, __m256 fy) {
    const __m256 t = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_sub_ps(a1, a0), fx));
    const __m256 bt = _mm256_add_ps(b0, _mm256_mul_ps(_mm256_sub_ps(b1, b0), fx));
    return _mm256_add_ps(t, _mm256_mul_ps(_mm256_sub_ps(bt, t), fy));
}

// Lane i of the result is window[rel_i] (rel_i in 0…15 when `wide`, else 0…7; `upper` marks rel_i > 7).
__attribute__((target("avx2"))) static inline __m256 lux_texture_window(const float *window, __m256i rel, __m256 upper,
                                                                         int wide) {
    const __m256 low = _mm256_permutevar8x32_ps(_mm256_loadu_ps(window), rel);
    if (!wide) return low;
    return _mm256_blendv_ps(low, _mm256_permutevar8x32_ps(_mm256_loadu_ps(window + 8), rel), upper);
}

__attribute__((target("avx2")))
static void lux_texture_row_avx2(const lux_texture_row_source *s, ptrdiff_t n, float *cov, float *c0, float *c1,
                                 float *c2) {
    const __m256 fw = _mm256_set1_ps((float)s->width);
    const __m256 last = _mm256_set1_ps((float)s->width - 1.0f);
    const __m256i last_index = _mm256_set1_epi32((int)s->width - 1);
    const __m256 zero = _mm256_setzero_ps();
    const __m256 minus_one = _mm256_set1_ps(-1.0f);
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 fy = _mm256_set1_ps(s->fy);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256 m[9];
    for (int k = 0; k < 9; k++) m[k] = _mm256_set1_ps(s->matrix[k]);
    ptrdiff_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 fi = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32((int)i), lanes));
        const __m256 u = _mm256_sub_ps(
            _mm256_mul_ps(_mm256_sub_ps(_mm256_add_ps(_mm256_set1_ps(s->x), _mm256_mul_ps(fi, _mm256_set1_ps(s->step))),
                                        _mm256_set1_ps(s->origin)),
                          _mm256_set1_ps(s->texels_per_unit)),
            half);
        __m256 xf = _mm256_blendv_ps(u, zero, _mm256_cmp_ps(zero, u, _CMP_GE_OQ));
        xf = _mm256_blendv_ps(xf, last, _mm256_cmp_ps(last, xf, _CMP_LT_OQ));
        __m256 inside = _mm256_and_ps(_mm256_cmp_ps(u, minus_one, _CMP_GT_OQ), _mm256_cmp_ps(u, fw, _CMP_LT_OQ));
        const __m256i x0 = _mm256_cvttps_epi32(xf);
        const __m256 fx = _mm256_sub_ps(xf, _mm256_cvtepi32_ps(x0));
        // x0 runs monotonically along the segment: when its eight texels x0 … x0 + 1 lie in one window of 17 inside
        // the row (fewer than two texels per pixel, as the texture's level is chosen, away from the right edge),
        // loads of eight and permutations give each texel pair; elsewhere, gathers.
        const int first_x = _mm256_cvtsi256_si32(x0), last_x = _mm256_extract_epi32(x0, 7);
        const int lo = first_x < last_x ? first_x : last_x, hi = first_x < last_x ? last_x : first_x;
        __m256 k[3];
        if (hi - lo <= 15 && lo + 17 <= s->width) {
            const __m256i rel = _mm256_sub_epi32(x0, _mm256_set1_epi32(lo));
            const int wide = hi - lo > 7;
            const __m256 upper = _mm256_castsi256_ps(_mm256_cmpgt_epi32(rel, _mm256_set1_epi32(7)));
            if (s->depth) {
                const __m256i nearest = _mm256_cvttps_epi32(_mm256_add_ps(xf, half));
                const __m256 right = _mm256_castsi256_ps(_mm256_cmpgt_epi32(nearest, x0));
                const __m256 d = _mm256_blendv_ps(lux_texture_window(s->depth + lo, rel, upper, wide),
                                                  lux_texture_window(s->depth + lo + 1, rel, upper, wide), right);
                inside = lux_texture_depth_test(inside, d, s->depth_min, s->depth_max);
            }
            for (int p = 0; p < 3; p++) {
                k[p] = lux_texture_bilinear(lux_texture_window(s->top[p] + lo, rel, upper, wide),
                                            lux_texture_window(s->top[p] + lo + 1, rel, upper, wide),
                                            lux_texture_window(s->bottom[p] + lo, rel, upper, wide),
                                            lux_texture_window(s->bottom[p] + lo + 1, rel, upper, wide), fx, fy);
            }
        } else {
            const __m256i x1 = _mm256_min_epi32(_mm256_add_epi32(x0, _mm256_set1_epi32(1)), last_index);
            if (s->depth) {
                const __m256i nearest = _mm256_cvttps_epi32(_mm256_add_ps(xf, half));
                inside = lux_texture_depth_test(inside, _mm256_i32gather_ps(s->depth, nearest, 4), s->depth_min,
                                                s->depth_max);
            }
            for (int p = 0; p < 3; p++) {
                k[p] = lux_texture_bilinear(
                    _mm256_i32gather_ps(s->top[p], x0, 4), _mm256_i32gather_ps(s->top[p], x1, 4),
                    _mm256_i32gather_ps(s->bottom[p], x0, 4), _mm256_i32gather_ps(s->bottom[p], x1, 4), fx, fy);
            }
        }
        for (int r = 0; r < 3; r++) {
            const __m256 v = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(m[3 * r], k[0]), _mm256_mul_ps(m[3 * r + 1], k[1])),
                _mm256_mul_ps(m[3 * r + 2], k[2]));
            _mm256_storeu_ps((r == 0 ? c0 : r == 1 ? c1 : c2) + i, _mm256_and_ps(inside, v));
        }
        _mm256_storeu_ps(cov + i, _mm256_and_ps(inside, _mm256_loadu_ps(cov + i)));
    }
    lux_texture_row_portable(s, i, n, cov, c0, c1, c2);
}
#endif

void lux_texture_row(const lux_texture_row_source *source, ptrdiff_t count, float *cov, float *c0, float *c1,
                     float *c2) {
    LUX_DISPATCH(lux_texture_row_avx2(source, count, cov, c0, c1, c2),
                 lux_texture_row_portable(source, 0, count, cov, c0, c1, c2));
}
