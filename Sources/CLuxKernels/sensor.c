// The simulated sensor's readout of one row (LuxCapture's SensorReadout): photo-electrons, shot noise, read noise and
// the 14-bit ADC for every pixel, then exact Poisson counts for the dim pixels. Eight pixels at a time in GCC vector
// types: the AVX2 path compiles the same body with 256-bit registers (the hashes' 32-bit products are one vpmulld
// there, an emulation of four on the SSE2 baseline). Every operation rounds as the Swift scalar code in the header's
// comment does (no fused multiply-add), so both paths give that code's bits.
#include "CLuxKernels.h"
#include <string.h>

#include "vec8.h"
#include "x86.h"

#pragma clang fp contract(off)

#define LUX_SENSOR_POISSON_THRESHOLD 24.0f
#define LUX_SENSOR_TERM_LIMIT 160

#define LUX_SENSOR_OP static inline __attribute__((always_inline))

// Wellons' lowbias32 (CounterRandom.hash32).
LUX_SENSOR_OP lux_su lux_sensor_hash(lux_su v) {
    v ^= v >> 16;
    v *= 0x7FEB352Du;
    v ^= v >> 15;
    v *= 0x846CA68Bu;
    v ^= v >> 16;
    return v;
}

// The sum of a hash's four bytes, centred and scaled to unit variance.
LUX_SENSOR_OP lux_sf lux_sensor_gaussian(lux_su h) {
    lux_su pairs = (h & 0x00FF00FFu) + ((h >> 8) & 0x00FF00FFu);
    lux_su sum = (pairs & 0xFFFFu) + (pairs >> 16);
    return (__builtin_convertvector((lux_si)sum, lux_sf) - 510.0f) * 0.006765875f;
}

// `v > lo ? v : lo`, then `a < hi ? a : hi`.
LUX_SENSOR_OP lux_sf lux_sensor_clamp(lux_sf v, float lo, float hi) {
    lux_sf l = lux_v8_splat(lo), h = lux_v8_splat(hi);
    lux_sf a = lux_v8_select(v > l, v, l);
    return lux_v8_select(a < h, a, h);
}

// The ADC: nearest code from the bit pattern of v + 1.5·2²³ (v limited to ±2²¹), clipped to 0…white.
LUX_SENSOR_OP lux_si lux_sensor_code(lux_sf v, int32_t white) {
    lux_si rounded = (lux_si)(lux_sensor_clamp(v, -2097152.0f, 2097152.0f) + 12582912.0f) - 0x4B400000;
    lux_si zero = {0};
    lux_si top = zero + white;
    rounded = (rounded > zero) & rounded;  // max(rounded, 0)
    lux_si over = rounded > top;
    return (over & top) | (~over & rounded);
}

typedef uint16_t lux_s16 __attribute__((vector_size(16)));

// The Gaussian path for the eight pixels at `radiance`; returns how many are dim.
LUX_SENSOR_OP int lux_sensor_block(const float *radiance, uint16_t *out, float *lambda, float *z2s, uint32_t first,
                                   const lux_sensor_parameters *p) {
    const lux_su lane = {0, 1, 2, 3, 4, 5, 6, 7};
    lux_sf rad;
    memcpy(&rad, radiance, sizeof rad);
    lux_sf r = rad * p->electrons_per_unit + p->dark_electrons;
    lux_sf zero = {0};
    lux_sf l = lux_v8_select(r > zero, r, zero);
    lux_su i = (lane + first) * 0x9E3779B9u;
    lux_sf z1 = lux_sensor_gaussian(lux_sensor_hash(i ^ p->seed_a));
    lux_sf z2 = lux_sensor_gaussian(lux_sensor_hash(i ^ p->seed_b));
    lux_sf electrons = lux_sensor_clamp(l + __builtin_elementwise_sqrt(l) * z1, 0.0f, p->full_well);
    lux_sf v = (p->black_level + p->codes_per_electron * electrons) + p->read_noise * z2;
    lux_s16 codes = __builtin_convertvector(lux_sensor_code(v, p->white_level), lux_s16);
    memcpy(lambda, &l, sizeof l);
    memcpy(z2s, &z2, sizeof z2);
    memcpy(out, &codes, sizeof codes);
    lux_si dim = l < LUX_SENSOR_POISSON_THRESHOLD;
    int count = 0;
    for (int k = 0; k < 8; k++) count -= dim[k];
    return count;
}

typedef float lux_sf16 __attribute__((vector_size(64)));
typedef int32_t lux_si16 __attribute__((vector_size(64)));

// Poisson counts by inversion of the `n` gathered dim pixels (arrays `stride` floats apart, room for `n` rounded up
// to a multiple of 16), in chunks of 64 whose largest λ bounds the number of CDF terms (λ + 10√λ + 10, at most 160).
// Sixteen pixels at a time in registers: each step counts the pixels whose uniform lies beyond the CDF and adds the
// next term; every eight steps, once each uniform lies within its CDF (which only grows) no later step can change a
// count, so the sixteen stop there.
LUX_SENSOR_OP void lux_sensor_poisson(size_t n, uint32_t base, const lux_sensor_parameters *p, float *scratch,
                                      size_t stride) {
    int32_t *idx = (int32_t *)(scratch + 2 * stride);
    float *lam = scratch + 3 * stride;
    float *count = scratch + 4 * stride;
    const size_t padded = (n + 15) & ~(size_t)15;
    for (size_t j = n; j < padded; j++) {
        idx[j] = 0;
        lam[j] = 0;
    }
    for (size_t start = 0; start < n; start += 64) {
        const size_t end = n < start + 64 ? n : start + 64;
        float top = 0;
        for (size_t j = start; j < end; j++) top = lam[j] >= top ? lam[j] : top;
        const float bound = top + 10.0f * __builtin_sqrtf(top) + 10.0f;
        const int steps = (int)bound < LUX_SENSOR_TERM_LIMIT ? (int)bound : LUX_SENSOR_TERM_LIMIT;
        for (size_t j = start; j < end; j += 16) {
            lux_si16 vi;
            lux_sf16 vl;
            memcpy(&vi, idx + j, sizeof vi);
            memcpy(&vl, lam + j, sizeof vl);
            lux_sf16 u, t;
            for (int half = 0; half < 2; half++) {
                // The uniform and e^(−λ) of eight lanes at a time, as the eight-lane helpers compute them.
                lux_si v8;
                lux_sf l8;
                memcpy(&v8, (int32_t *)&vi + 8 * half, sizeof v8);
                memcpy(&l8, (float *)&vl + 8 * half, sizeof l8);
                lux_su i = ((lux_su)v8 + base) * 0x9E3779B9u;
                lux_sf u8 = __builtin_convertvector((lux_si)(lux_sensor_hash(i ^ p->seed_c) >> 8), lux_sf) *
                            (1.0f / 16777216.0f);
                lux_sf t8 = lux_v8_exp2(-l8 * 1.44269504f);
                memcpy((float *)&u + 8 * half, &u8, sizeof u8);
                memcpy((float *)&t + 8 * half, &t8, sizeof t8);
            }
            lux_sf16 cdf = t, c = {0};
            const lux_sf16 one = c + 1.0f;
            for (int first = 1; first <= steps;) {
                const int last = first + 7 < steps ? first + 7 : steps;
                for (int s = first; s <= last; s++) {
                    const float r = 1.0f / (float)s;
                    lux_si16 beyond = u > cdf;
                    c = c + (lux_sf16)(beyond & (lux_si16)one);
                    t = t * (vl * r);
                    cdf = cdf + t;
                }
                first = last + 1;
                lux_si16 open = u > cdf;
                int any = 0;
                for (int k = 0; k < 16; k++) any |= open[k];
                if (!any) break;
            }
            memcpy(count + j, &c, sizeof c);
        }
    }
}

static inline __attribute__((always_inline)) void lux_sensor_row_body(const float *radiance, uint16_t *out, size_t w,
                                                                      uint32_t base, const lux_sensor_parameters *p,
                                                                      float *scratch) {
    const size_t stride = (w + 15) & ~(size_t)15;
    float *lambda = scratch;
    float *z2s = scratch + stride;
    int dim = 0;
    size_t x = 0;
    for (; x + 8 <= w; x += 8) dim += lux_sensor_block(radiance + x, out + x, lambda + x, z2s + x, base + (uint32_t)x, p);
    if (x < w) {
        // The last pixels through a padded block (zero radiance past the row, never stored nor counted).
        const size_t n = w - x;
        float rad[8] = {0}, l[8], z[8];
        uint16_t codes[8];
        memcpy(rad, radiance + x, n * sizeof(float));
        lux_sensor_block(rad, codes, l, z, base + (uint32_t)x, p);
        memcpy(out + x, codes, n * sizeof(uint16_t));
        memcpy(lambda + x, l, n * sizeof(float));
        memcpy(z2s + x, z, n * sizeof(float));
        for (size_t k = 0; k < n; k++) dim += l[k] < LUX_SENSOR_POISSON_THRESHOLD;
    }
    if (dim == 0) return;
    int32_t *idx = (int32_t *)(scratch + 2 * stride);
    float *lam = scratch + 3 * stride;
    size_t n = 0;
    for (size_t x = 0; x < w; x++) {
        idx[n] = (int32_t)x;
        lam[n] = lambda[x];
        n += lambda[x] < LUX_SENSOR_POISSON_THRESHOLD;
    }
    lux_sensor_poisson(n, base, p, scratch, stride);
    const float *count = scratch + 4 * stride;
    const float fw = p->full_well;
    for (size_t j = 0; j < n; j++) {
        const size_t x = (size_t)idx[j];
        const float electrons = fw < count[j] ? fw : count[j];
        float v = (p->black_level + p->codes_per_electron * electrons) + p->read_noise * z2s[x];
        v = v > -2097152.0f ? v : -2097152.0f;
        v = v < 2097152.0f ? v : 2097152.0f;
        float shifted = v + 12582912.0f;
        int32_t rounded;
        memcpy(&rounded, &shifted, sizeof rounded);
        rounded -= 0x4B400000;
        rounded = rounded > 0 ? rounded : 0;
        out[x] = (uint16_t)(rounded < p->white_level ? rounded : p->white_level);
    }
}

static void lux_sensor_row_portable(const float *radiance, uint16_t *out, size_t w, uint32_t base,
                                    const lux_sensor_parameters *p, float *scratch) {
    lux_sensor_row_body(radiance, out, w, base, p, scratch);
}

#if LUX_X86
__attribute__((target("avx2")))
static void lux_sensor_row_avx2(const float *radiance, uint16_t *out, size_t w, uint32_t base,
                                const lux_sensor_parameters *p, float *scratch) {
    lux_sensor_row_body(radiance, out, w, base, p, scratch);
}
#endif

void lux_sensor_row(const float *radiance, uint16_t *out, size_t count, uint32_t base, const lux_sensor_parameters *p,
                    float *scratch) {
    LUX_DISPATCH(lux_sensor_row_avx2(radiance, out, count, base, p, scratch),
                 lux_sensor_row_portable(radiance, out, count, base, p, scratch));
}
