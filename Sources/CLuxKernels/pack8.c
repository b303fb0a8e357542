// 8-bit RGB ↔ RGBA row conversions (file rows to engine rows and back), 16 bytes at a time with byte shuffles
// when the CPU has AVX2 (which implies SSSE3's pshufb).
#include "CLuxKernels.h"

#include "x86.h"

static void lux_rgb8_to_rgba8_portable(const uint8_t *s, uint8_t *d, size_t n) {
    for (size_t i = 0; i < n; i++) {
        d[4 * i] = s[3 * i];
        d[4 * i + 1] = s[3 * i + 1];
        d[4 * i + 2] = s[3 * i + 2];
        d[4 * i + 3] = 255;
    }
}

static void lux_rgba8_to_rgb8_portable(const uint8_t *s, uint8_t *d, size_t n) {
    for (size_t i = 0; i < n; i++) {
        d[3 * i] = s[4 * i];
        d[3 * i + 1] = s[4 * i + 1];
        d[3 * i + 2] = s[4 * i + 2];
    }
}

#if LUX_X86
__attribute__((target("avx2")))
static void lux_rgb8_to_rgba8_avx2(const uint8_t *s, uint8_t *d, size_t n) {
    // Four pixels per 16-byte load (12 bytes used); alpha bytes come from the OR mask.
    const __m128i spread = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i alpha = _mm_set1_epi32((int)0xFF000000u);
    size_t i = 0;
    // A load reads 16 bytes from 3·i: stay 16 bytes inside the 3·n of the source.
    for (; i + 6 <= n; i += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + 3 * i));
        _mm_storeu_si128((__m128i *)(d + 4 * i), _mm_or_si128(_mm_shuffle_epi8(v, spread), alpha));
    }
    lux_rgb8_to_rgba8_portable(s + 3 * i, d + 4 * i, n - i);
}

__attribute__((target("avx2")))
static void lux_rgba8_to_rgb8_avx2(const uint8_t *s, uint8_t *d, size_t n) {
    const __m128i pack = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    size_t i = 0;
    // A store writes 16 bytes at 3·i (the last 4 are overwritten by the next store): stay inside 3·n.
    for (; i + 6 <= n; i += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + 4 * i));
        _mm_storeu_si128((__m128i *)(d + 3 * i), _mm_shuffle_epi8(v, pack));
    }
    lux_rgba8_to_rgb8_portable(s + 4 * i, d + 3 * i, n - i);
}
#endif

void lux_rgb8_to_rgba8(const uint8_t *src, uint8_t *dst, size_t count) {
    LUX_DISPATCH(lux_rgb8_to_rgba8_avx2(src, dst, count), lux_rgb8_to_rgba8_portable(src, dst, count));
}

void lux_rgba8_to_rgb8(const uint8_t *src, uint8_t *dst, size_t count) {
    LUX_DISPATCH(lux_rgba8_to_rgb8_avx2(src, dst, count), lux_rgba8_to_rgb8_portable(src, dst, count));
}
