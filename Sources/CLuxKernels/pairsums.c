// The 3A statistics' sums over a segment of a Bayer row (LuxCapture's FrameStatistics): the even and the odd samples'
// sums and how many of each clipped. Integer arithmetic: both paths give the same counts.
#include "CLuxKernels.h"

#include "x86.h"

static inline __attribute__((always_inline)) void lux_pair_sums_body(const uint16_t *src, size_t pairs, uint16_t clip,
                                                                     uint32_t *out) {
    uint32_t s0 = 0, s1 = 0, k0 = 0, k1 = 0;
    for (size_t j = 0; j < pairs; j++) {
        const uint16_t a = src[2 * j], b = src[2 * j + 1];
        s0 += a;
        s1 += b;
        k0 += a >= clip;
        k1 += b >= clip;
    }
    out[0] = s0;
    out[1] = s1;
    out[2] = k0;
    out[3] = k1;
}

static void lux_pair_sums_portable(const uint16_t *src, size_t pairs, uint16_t clip, uint32_t *out) {
    lux_pair_sums_body(src, pairs, clip, out);
}

#if LUX_X86
__attribute__((target("avx2")))
static void lux_pair_sums_avx2(const uint16_t *src, size_t pairs, uint16_t clip, uint32_t *out) {
    lux_pair_sums_body(src, pairs, clip, out);
}
#endif

void lux_pair_sums(const uint16_t *src, size_t pairs, uint16_t clip, uint32_t out[4]) {
    LUX_DISPATCH(lux_pair_sums_avx2(src, pairs, clip, out), lux_pair_sums_portable(src, pairs, clip, out));
}
