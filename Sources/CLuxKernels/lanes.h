// Lane-generic float operations for row kernels written once and compiled three times: one lane (`float`, for tails
// and CPUs other than x86), four (SSE, the baseline x86-64 target) and eight (AVX2, chosen at run time). Include this
// after defining LUX_LANES as 1, 4 or 8; it defines the vector type `vf`, `LUX_FN(name)` (the name with the width
// appended), `LUX_TARGET` (the function attribute of the width) and the operations below. Every operation rounds as
// the scalar IEEE one does, and `vmax`/`vmin`/`vselect_lt` follow Swift's `max`, `min` and `a < b ? x : y` exactly
// (NaN included; `vselect_le` is `a <= b ? x : y`), so each width gives the same bits as Swift's scalar code with the same expression tree.
//
// `vset2(e, o)` (wider than one lane only) alternates e and o across the lanes; `vload_u16` widens unsigned 16-bit
// samples exactly; `vany_gt(a, b)` is nonzero when `a > b` in any lane (an ordered comparison: NaN is never greater).
// Moving values only: `veven(x, y)` and `vodd(x, y)` are the even and odd elements of the 2·LUX_LANES consecutive
// values x then y; `vzip_lo(a, b)` and `vzip_hi(a, b)` are the first and second LUX_LANES values of a₀ b₀ a₁ b₁ ….
//
// Include with LUX_LANES undefined afterwards to clear the definitions.
#include <stdint.h>

#include "x86.h"

#undef LUX_FN
#undef LUX_TARGET
#undef LUX_PASTE
#undef LUX_PASTE2
#undef vf
#undef vload
#undef vstore
#undef vset
#undef vadd
#undef vsub
#undef vmul
#undef vdiv
#undef vsqrt
#undef vabs
#undef vneg
#undef vmax
#undef vmin
#undef vselect_lt
#undef vselect_le
#undef vset2
#undef vload_u16
#undef vany_gt
#undef veven
#undef vodd
#undef vzip_lo
#undef vzip_hi
#undef LUX_W

#ifdef LUX_LANES

#define LUX_PASTE2(a, b) a##_##b
#define LUX_PASTE(a, b) LUX_PASTE2(a, b)

#if LUX_LANES == 1
#define LUX_FN(name) LUX_PASTE(name, lanes1)
#define LUX_TARGET __attribute__((unused))
#define LUX_OP static inline __attribute__((always_inline, unused))
typedef float lux_vf1;
#define vf lux_vf1
LUX_OP float lux1_load(const float *p) { return *p; }
LUX_OP void lux1_store(float *p, float v) { *p = v; }
LUX_OP float lux1_set(float x) { return x; }
LUX_OP float lux1_add(float a, float b) { return a + b; }
LUX_OP float lux1_sub(float a, float b) { return a - b; }
LUX_OP float lux1_mul(float a, float b) { return a * b; }
LUX_OP float lux1_div(float a, float b) { return a / b; }
LUX_OP float lux1_sqrt(float a) { return __builtin_sqrtf(a); }
LUX_OP float lux1_abs(float a) { return __builtin_fabsf(a); }
LUX_OP float lux1_neg(float a) { return -a; }
LUX_OP float lux1_max(float x, float y) { return y >= x ? y : x; }
LUX_OP float lux1_min(float x, float y) { return y < x ? y : x; }
LUX_OP float lux1_select_lt(float a, float b, float x, float y) { return a < b ? x : y; }
LUX_OP float lux1_select_le(float a, float b, float x, float y) { return a <= b ? x : y; }
LUX_OP float lux1_load_u16(const uint16_t *p) { return (float)*p; }
LUX_OP int lux1_any_gt(float a, float b) { return a > b; }
LUX_OP float lux1_even(float x, float y) { return (void)y, x; }
LUX_OP float lux1_odd(float x, float y) { return (void)x, y; }
LUX_OP float lux1_zip_lo(float a, float b) { return (void)b, a; }
LUX_OP float lux1_zip_hi(float a, float b) { return (void)a, b; }
#define LUX_W lux1

#elif LUX_LANES == 4 && LUX_X86
#define LUX_FN(name) LUX_PASTE(name, lanes4)
#define LUX_TARGET __attribute__((unused))
#define LUX_OP static inline __attribute__((always_inline, unused))
#define vf __m128
LUX_OP __m128 lux4_load(const float *p) { return _mm_loadu_ps(p); }
LUX_OP void lux4_store(float *p, __m128 v) { _mm_storeu_ps(p, v); }
LUX_OP __m128 lux4_set(float x) { return _mm_set1_ps(x); }
LUX_OP __m128 lux4_add(__m128 a, __m128 b) { return _mm_add_ps(a, b); }
LUX_OP __m128 lux4_sub(__m128 a, __m128 b) { return _mm_sub_ps(a, b); }
LUX_OP __m128 lux4_mul(__m128 a, __m128 b) { return _mm_mul_ps(a, b); }
LUX_OP __m128 lux4_div(__m128 a, __m128 b) { return _mm_div_ps(a, b); }
LUX_OP __m128 lux4_sqrt(__m128 a) { return _mm_sqrt_ps(a); }
LUX_OP __m128 lux4_abs(__m128 a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
LUX_OP __m128 lux4_neg(__m128 a) { return _mm_xor_ps(_mm_set1_ps(-0.0f), a); }
LUX_OP __m128 lux4_blend(__m128 mask, __m128 x, __m128 y) {
    return _mm_or_ps(_mm_and_ps(mask, x), _mm_andnot_ps(mask, y));
}
LUX_OP __m128 lux4_max(__m128 x, __m128 y) { return lux4_blend(_mm_cmpge_ps(y, x), y, x); }
LUX_OP __m128 lux4_min(__m128 x, __m128 y) { return lux4_blend(_mm_cmplt_ps(y, x), y, x); }
LUX_OP __m128 lux4_select_lt(__m128 a, __m128 b, __m128 x, __m128 y) { return lux4_blend(_mm_cmplt_ps(a, b), x, y); }
LUX_OP __m128 lux4_select_le(__m128 a, __m128 b, __m128 x, __m128 y) { return lux4_blend(_mm_cmple_ps(a, b), x, y); }
LUX_OP __m128 lux4_set2(float even, float odd) { return _mm_setr_ps(even, odd, even, odd); }
LUX_OP __m128 lux4_load_u16(const uint16_t *p) {
    return _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)p), _mm_setzero_si128()));
}
LUX_OP int lux4_any_gt(__m128 a, __m128 b) { return _mm_movemask_ps(_mm_cmpgt_ps(a, b)); }
LUX_OP __m128 lux4_even(__m128 x, __m128 y) { return _mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 0, 2, 0)); }
LUX_OP __m128 lux4_odd(__m128 x, __m128 y) { return _mm_shuffle_ps(x, y, _MM_SHUFFLE(3, 1, 3, 1)); }
LUX_OP __m128 lux4_zip_lo(__m128 a, __m128 b) { return _mm_unpacklo_ps(a, b); }
LUX_OP __m128 lux4_zip_hi(__m128 a, __m128 b) { return _mm_unpackhi_ps(a, b); }
#define LUX_W lux4

#elif LUX_LANES == 8 && LUX_X86
#define LUX_FN(name) LUX_PASTE(name, lanes8)
#define LUX_TARGET __attribute__((target("avx2"), unused))
#define LUX_OP static inline __attribute__((always_inline, target("avx2"), unused))
#define vf __m256
LUX_OP __m256 lux8_load(const float *p) { return _mm256_loadu_ps(p); }
LUX_OP void lux8_store(float *p, __m256 v) { _mm256_storeu_ps(p, v); }
LUX_OP __m256 lux8_set(float x) { return _mm256_set1_ps(x); }
LUX_OP __m256 lux8_add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
LUX_OP __m256 lux8_sub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
LUX_OP __m256 lux8_mul(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
LUX_OP __m256 lux8_div(__m256 a, __m256 b) { return _mm256_div_ps(a, b); }
LUX_OP __m256 lux8_sqrt(__m256 a) { return _mm256_sqrt_ps(a); }
LUX_OP __m256 lux8_abs(__m256 a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
LUX_OP __m256 lux8_neg(__m256 a) { return _mm256_xor_ps(_mm256_set1_ps(-0.0f), a); }
LUX_OP __m256 lux8_max(__m256 x, __m256 y) { return _mm256_blendv_ps(x, y, _mm256_cmp_ps(y, x, _CMP_GE_OQ)); }
LUX_OP __m256 lux8_min(__m256 x, __m256 y) { return _mm256_blendv_ps(x, y, _mm256_cmp_ps(y, x, _CMP_LT_OQ)); }
LUX_OP __m256 lux8_select_lt(__m256 a, __m256 b, __m256 x, __m256 y) {
    return _mm256_blendv_ps(y, x, _mm256_cmp_ps(a, b, _CMP_LT_OQ));
}
LUX_OP __m256 lux8_select_le(__m256 a, __m256 b, __m256 x, __m256 y) {
    return _mm256_blendv_ps(y, x, _mm256_cmp_ps(a, b, _CMP_LE_OQ));
}
LUX_OP __m256 lux8_set2(float even, float odd) { return _mm256_setr_ps(even, odd, even, odd, even, odd, even, odd); }
LUX_OP __m256 lux8_load_u16(const uint16_t *p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p)));
}
LUX_OP int lux8_any_gt(__m256 a, __m256 b) { return _mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_GT_OQ)); }
// Within each 128-bit half, then the halves' 64-bit quarters put in order (x's before y's).
LUX_OP __m256 lux8_even(__m256 x, __m256 y) {
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(x, y, 0x88)), 0xD8));
}
LUX_OP __m256 lux8_odd(__m256 x, __m256 y) {
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(x, y, 0xDD)), 0xD8));
}
LUX_OP __m256 lux8_zip_lo(__m256 a, __m256 b) {
    return _mm256_permute2f128_ps(_mm256_unpacklo_ps(a, b), _mm256_unpackhi_ps(a, b), 0x20);
}
LUX_OP __m256 lux8_zip_hi(__m256 a, __m256 b) {
    return _mm256_permute2f128_ps(_mm256_unpacklo_ps(a, b), _mm256_unpackhi_ps(a, b), 0x31);
}
#define LUX_W lux8

#else
#error "LUX_LANES must be 1, or 4 or 8 on x86"
#endif

#undef LUX_OP
#define vload LUX_PASTE(LUX_W, load)
#define vstore LUX_PASTE(LUX_W, store)
#define vset LUX_PASTE(LUX_W, set)
#define vadd LUX_PASTE(LUX_W, add)
#define vsub LUX_PASTE(LUX_W, sub)
#define vmul LUX_PASTE(LUX_W, mul)
#define vdiv LUX_PASTE(LUX_W, div)
#define vsqrt LUX_PASTE(LUX_W, sqrt)
#define vabs LUX_PASTE(LUX_W, abs)
#define vneg LUX_PASTE(LUX_W, neg)
#define vmax LUX_PASTE(LUX_W, max)
#define vmin LUX_PASTE(LUX_W, min)
#define vselect_lt LUX_PASTE(LUX_W, select_lt)
#define vselect_le LUX_PASTE(LUX_W, select_le)
#define vset2 LUX_PASTE(LUX_W, set2)
#define vload_u16 LUX_PASTE(LUX_W, load_u16)
#define vany_gt LUX_PASTE(LUX_W, any_gt)
#define veven LUX_PASTE(LUX_W, even)
#define vodd LUX_PASTE(LUX_W, odd)
#define vzip_lo LUX_PASTE(LUX_W, zip_lo)
#define vzip_hi LUX_PASTE(LUX_W, zip_hi)

#endif

#ifndef LUX_LANES_DISPATCH_H
#define LUX_LANES_DISPATCH_H
// lux_lanes_unforced (x86.h): the width ``lux_lanes`` gave while no thread had forced a width or the portable loops
// (0 until then, and for good once one has): LUX_RUN reads it instead of calling ``lux_lanes`` for every row.

static inline __attribute__((always_inline, unused)) int lux_lanes_now(void) {
    int lanes = __atomic_load_n(&lux_lanes_unforced, __ATOMIC_SEQ_CST);
    return lanes ? lanes : lux_lanes();
}

// Runs kernel `name` (instantiated for each width by including a row template under lanes.h) over indices
// `start..<end`: the widest vectors the CPU (or ``lux_force_lanes``) allows, four lanes for what is left after eight,
// then one lane for the rest (every width gives the same bits, so the split changes no value). The kernel takes its
// arguments, then the first index and the end, and returns the first index it did not compute.
#if LUX_X86
#define LUX_RUN(name, start, end, ...)                                              \
    do {                                                                             \
        ptrdiff_t lux_i_ = (start);                                                  \
        int lux_lanes_ = lux_lanes_now();                                            \
        if (lux_lanes_ == 8) lux_i_ = name##_lanes8(__VA_ARGS__, lux_i_, (end));     \
        if (lux_lanes_ >= 4) lux_i_ = name##_lanes4(__VA_ARGS__, lux_i_, (end));     \
        name##_lanes1(__VA_ARGS__, lux_i_, (end));                                   \
    } while (0)
#else
#define LUX_RUN(name, start, end, ...)             \
    do {                                           \
        name##_lanes1(__VA_ARGS__, (start), (end)); \
    } while (0)
#endif
#endif
