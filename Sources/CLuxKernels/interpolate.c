// Linear interpolation at indexed positions (a coarse row upsampled to the grid's columns). The product is rounded
// before the sum on both paths (no fused multiply-add), so they agree bit for bit.
#include "CLuxKernels.h"

#include "x86.h"

#pragma clang fp contract(off)

static void lux_lerp_indexed_portable(const float *a, const float *d, const int32_t *index, const float *t, float *out,
                                      size_t count) {
    for (size_t i = 0; i < count; i++) {
        out[i] = a[index[i]] + t[i] * d[index[i]];
    }
}

#if LUX_X86
__attribute__((target("avx2")))
static void lux_lerp_indexed_avx2(const float *a, const float *d, size_t length, const int32_t *index, const float *t,
                                  float *out, size_t count) {
    size_t i = 0;
    const __m256i seven = _mm256_set1_epi32(7);
    for (; i + 8 <= count; i += 8) {
        __m256i k = _mm256_loadu_si256((const __m256i *)(index + i));
        int32_t base = index[i];
        __m256i local = _mm256_sub_epi32(k, _mm256_set1_epi32(base));
        __m256i outside = _mm256_or_si256(_mm256_cmpgt_epi32(local, seven), _mm256_cmpgt_epi32(_mm256_setzero_si256(), local));
        __m256 A, D;
        if (_mm256_testz_si256(outside, outside) && (size_t)base + 8 <= length) {
            A = _mm256_permutevar8x32_ps(_mm256_loadu_ps(a + base), local);
            D = _mm256_permutevar8x32_ps(_mm256_loadu_ps(d + base), local);
        } else {
            A = _mm256_i32gather_ps(a, k, 4);
            D = _mm256_i32gather_ps(d, k, 4);
        }
        _mm256_storeu_ps(out + i, _mm256_add_ps(A, _mm256_mul_ps(_mm256_loadu_ps(t + i), D)));
    }
    lux_lerp_indexed_portable(a, d, index + i, t + i, out + i, count - i);
}
#endif

void lux_lerp_indexed(const float *a, const float *d, size_t length, const int32_t *index, const float *t, float *out,
                      size_t count) {
    LUX_DISPATCH(lux_lerp_indexed_avx2(a, d, length, index, t, out, count),
                 lux_lerp_indexed_portable(a, d, index, t, out, count));
}
