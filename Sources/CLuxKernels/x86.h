// Whether this build targets x86 (then the kernels offer AVX2/F16C loops chosen at run time).
#ifndef LUX_X86_H
#define LUX_X86_H

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LUX_X86 1
#else
#define LUX_X86 0
#endif

// Called by the functions that force kernel paths for tests (`lux_force_lanes`, `lux_force_portable`): from then on
// the lane kernels ask `lux_lanes` on every call instead of reading the width it cached (lanes.h's LUX_RUN).
void lux_lanes_forget(void);

// lanes.c's cached width (see lanes.h's LUX_RUN): 8 means AVX2 with nothing forced, so LUX_DISPATCH needs no call.
extern int lux_lanes_unforced;

// Runs `fast` (a loop for AVX2, F16C and FMA) when the CPU has those units and `portable` otherwise; elsewhere than
// x86 only `portable` is compiled. Both must compute the same values.
#if LUX_X86
#define LUX_DISPATCH(fast, portable)                                                              \
    do {                                                                                          \
        if (__atomic_load_n(&lux_lanes_unforced, __ATOMIC_SEQ_CST) == 8 || lux_has_f16c()) {     \
            fast;                                                                                 \
        } else {                                                                                  \
            portable;                                                                             \
        }                                                                                         \
    } while (0)
#else
#define LUX_DISPATCH(fast, portable) \
    do {                             \
        portable;                    \
    } while (0)
#endif

#if LUX_X86
// Interleaves one vector per channel (eight pixels) into RGBA order: p[0] holds pixels 0–1, p[1] 2–3, p[2] 4–5,
// p[3] 6–7 (four floats each).
__attribute__((target("avx2")))
static inline void lux_interleave8(__m256 R, __m256 G, __m256 B, __m256 A, __m256 p[4]) {
    __m256 u0 = _mm256_unpacklo_ps(R, G);  // r0 g0 r1 g1 | r4 g4 r5 g5
    __m256 u1 = _mm256_unpackhi_ps(R, G);  // r2 g2 r3 g3 | r6 g6 r7 g7
    __m256 u2 = _mm256_unpacklo_ps(B, A);
    __m256 u3 = _mm256_unpackhi_ps(B, A);
    __m256 w0 = _mm256_shuffle_ps(u0, u2, 0x44);  // px0 | px4
    __m256 w1 = _mm256_shuffle_ps(u0, u2, 0xEE);  // px1 | px5
    __m256 w2 = _mm256_shuffle_ps(u1, u3, 0x44);  // px2 | px6
    __m256 w3 = _mm256_shuffle_ps(u1, u3, 0xEE);  // px3 | px7
    p[0] = _mm256_permute2f128_ps(w0, w1, 0x20);
    p[1] = _mm256_permute2f128_ps(w2, w3, 0x20);
    p[2] = _mm256_permute2f128_ps(w0, w1, 0x31);
    p[3] = _mm256_permute2f128_ps(w2, w3, 0x31);
}
#endif

#endif
