// Eight-lane GCC vector types and helpers for the kernels written once for both paths: the AVX2 path compiles the
// same always-inlined body with 256-bit registers, the SSE2 baseline with pairs of 128-bit ones. Every operation rounds
// as the Swift scalar code it replaces does (the including file turns off contraction into fused multiply-adds).
#ifndef LUX_VEC8_H
#define LUX_VEC8_H

#include <stdint.h>

// The 256-bit vector helpers are always inlined, so no vector crosses a call on either path.
#pragma clang diagnostic ignored "-Wpsabi"

typedef float lux_sf __attribute__((vector_size(32)));
typedef int32_t lux_si __attribute__((vector_size(32)));
typedef uint32_t lux_su __attribute__((vector_size(32)));

#define LUX_V8_OP static inline __attribute__((always_inline))

LUX_V8_OP lux_sf lux_v8_splat(float x) { return (lux_sf){x, x, x, x, x, x, x, x}; }

// `mask ? x : y` per lane, `mask` all ones or all zeros.
LUX_V8_OP lux_sf lux_v8_select(lux_si mask, lux_sf x, lux_sf y) {
    return (lux_sf)((mask & (lux_si)x) | (~mask & (lux_si)y));
}

// 2^y (LuxColor's fastExp2): y limited to −126…127, a degree-7 polynomial of the fraction times 2^r.
LUX_V8_OP lux_sf lux_v8_exp2(lux_sf y) {
    lux_sf lo = lux_v8_splat(-126.0f), hi = lux_v8_splat(127.0f);
    lux_sf a = lux_v8_select(lo >= y, lo, y);
    lux_sf yc = lux_v8_select(hi < a, hi, a);
    lux_sf r = (yc + 12582912.0f) - 12582912.0f;
    lux_sf f = yc - r;
    lux_sf p = lux_v8_splat(1.5252734e-05f);
    p = p * f + 1.5403530e-04f;
    p = p * f + 1.3333558e-03f;
    p = p * f + 9.6181291e-03f;
    p = p * f + 5.5504109e-02f;
    p = p * f + 2.4022651e-01f;
    p = p * f + 6.9314718e-01f;
    p = p * f + 1.0f;
    lux_si biased = (lux_si)(r + 8388735.0f) & 0x007FFFFF;
    return p * (lux_sf)(biased << 23);
}

#endif
