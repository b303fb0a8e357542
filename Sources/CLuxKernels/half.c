// Row conversion between IEEE binary16 and binary32.
// The baseline x86-64 target has no F16C, where each conversion is a library call (~3 ns);
// these row functions pick an F16C/AVX2 loop at run time instead.
#include "CLuxKernels.h"

#include "half4.h"
#include "x86.h"

// Per thread: a test forcing the portable loops must not switch the paths of tests running beside it.
static _Thread_local int lux_forced_portable = 0;

void lux_force_portable(int force) {
    lux_lanes_forget();  // the lane kernels' width follows lux_has_f16c: LUX_RUN must ask again
    lux_forced_portable = force;
}

int lux_has_f16c(void) {
#if LUX_X86
    // Threads may race to fill the cache; they all store the same value, atomically.
    static int cached = -1;
    if (lux_forced_portable) return 0;
    int known = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (known < 0) {
        __builtin_cpu_init();
        known = (__builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            ? 1 : 0;
        __atomic_store_n(&cached, known, __ATOMIC_RELAXED);
    }
    return known;
#else
    return 0;
#endif
}

static void lux_half_to_float_portable(const uint16_t *src, float *dst, size_t count) {
    for (size_t i = 0; i < count; i++) dst[i] = lux_half_to_float_one(src[i]);
}

static void lux_float_to_half_portable(const float *src, uint16_t *dst, size_t count) {
    for (size_t i = 0; i < count; i++) dst[i] = lux_float_to_half_one(src[i]);
}

#if LUX_X86
__attribute__((target("avx2,f16c")))
static void lux_half_to_float_f16c(const uint16_t *src, float *dst, size_t count) {
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 8));
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(a));
        _mm256_storeu_ps(dst + i + 8, _mm256_cvtph_ps(b));
    }
    for (; i + 8 <= count; i += 8) {
        __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(a));
    }
    for (; i < count; i++) dst[i] = lux_half_to_float_one(src[i]);
}

__attribute__((target("avx2,f16c")))
static void lux_float_to_half_f16c(const float *src, uint16_t *dst, size_t count) {
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256 a = _mm256_loadu_ps(src + i);
        __m256 b = _mm256_loadu_ps(src + i + 8);
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
        _mm_storeu_si128((__m128i *)(dst + i + 8), _mm256_cvtps_ph(b, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i + 8 <= count; i += 8) {
        __m256 a = _mm256_loadu_ps(src + i);
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < count; i++) dst[i] = lux_float_to_half_one(src[i]);
}
#endif

static void lux_half_alternate_to_float_portable(const uint16_t *even, const uint16_t *odd, float *dst, size_t count) {
    for (size_t i = 0; i < count; i++) dst[i] = lux_half_to_float_one((i & 1) ? odd[i] : even[i]);
}

static void lux_float_to_half_scaled_portable(const float *src, float scale, uint16_t *dst, size_t count) {
    for (size_t i = 0; i < count; i++) dst[i] = lux_float_to_half_one(src[i] * scale);
}

#if LUX_X86
__attribute__((target("avx2,f16c")))
static void lux_half_alternate_to_float_f16c(const uint16_t *even, const uint16_t *odd, float *dst, size_t count) {
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        // Odd 16-bit lanes from `odd`, even ones from `even`.
        __m256i h = _mm256_blend_epi16(_mm256_loadu_si256((const __m256i *)(even + i)),
                                       _mm256_loadu_si256((const __m256i *)(odd + i)), 0xAA);
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm256_castsi256_si128(h)));
        _mm256_storeu_ps(dst + i + 8, _mm256_cvtph_ps(_mm256_extracti128_si256(h, 1)));
    }
    lux_half_alternate_to_float_portable(even + i, odd + i, dst + i, count - i);
}

__attribute__((target("avx2,f16c")))
static void lux_float_to_half_scaled_f16c(const float *src, float scale, uint16_t *dst, size_t count, int stream) {
    size_t i = 0;
    __m256 k = _mm256_set1_ps(scale);
    if (stream && ((uintptr_t)dst & 1) == 0) {
        // Non-temporal stores need 16-byte alignment: the values before the first aligned one go the portable way.
        size_t head = ((16 - ((uintptr_t)dst & 15)) & 15) / 2;
        if (head > count) head = count;
        lux_float_to_half_scaled_portable(src, scale, dst, head);
        for (i = head; i + 8 <= count; i += 8) {
            __m256 a = _mm256_mul_ps(_mm256_loadu_ps(src + i), k);
            _mm_stream_si128((__m128i *)(dst + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
        }
        _mm_sfence();
    }
    for (; i + 16 <= count; i += 16) {
        __m256 a = _mm256_mul_ps(_mm256_loadu_ps(src + i), k);
        __m256 b = _mm256_mul_ps(_mm256_loadu_ps(src + i + 8), k);
        _mm_storeu_si128((__m128i *)(dst + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
        _mm_storeu_si128((__m128i *)(dst + i + 8), _mm256_cvtps_ph(b, _MM_FROUND_TO_NEAREST_INT));
    }
    lux_float_to_half_scaled_portable(src + i, scale, dst + i, count - i);
}
#endif

void lux_half_alternate_to_float(const uint16_t *even, const uint16_t *odd, float *dst, size_t count) {
    LUX_DISPATCH(lux_half_alternate_to_float_f16c(even, odd, dst, count),
                 lux_half_alternate_to_float_portable(even, odd, dst, count));
}

void lux_float_to_half_scaled(const float *src, float scale, uint16_t *dst, size_t count, int stream) {
    LUX_DISPATCH(lux_float_to_half_scaled_f16c(src, scale, dst, count, stream),
                 lux_float_to_half_scaled_portable(src, scale, dst, count));
}

void lux_half_to_float(const uint16_t *src, float *dst, size_t count) {
    LUX_DISPATCH(lux_half_to_float_f16c(src, dst, count), lux_half_to_float_portable(src, dst, count));
}

void lux_float_to_half(const float *src, uint16_t *dst, size_t count) {
    LUX_DISPATCH(lux_float_to_half_f16c(src, dst, count), lux_float_to_half_portable(src, dst, count));
}

// Interleaved half RGBA <-> four float planes (the render engine's row format), in one pass.

static void lux_half4_to_planar_portable(const uint16_t *src, float *r, float *g, float *b, float *a, size_t n) {
    for (size_t i = 0; i < n; i++) {
        r[i] = lux_half_to_float_one(src[4 * i]);
        g[i] = lux_half_to_float_one(src[4 * i + 1]);
        b[i] = lux_half_to_float_one(src[4 * i + 2]);
        a[i] = lux_half_to_float_one(src[4 * i + 3]);
    }
}

static void lux_planar_to_half4_portable(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[4 * i] = lux_float_to_half_one(r[i]);
        dst[4 * i + 1] = lux_float_to_half_one(g[i]);
        dst[4 * i + 2] = lux_float_to_half_one(b[i]);
        dst[4 * i + 3] = lux_float_to_half_one(a[i]);
    }
}

#if LUX_X86
__attribute__((target("avx2,f16c")))
static void lux_half4_to_planar_f16c(const uint16_t *src, float *r, float *g, float *b, float *a, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 R, G, B, A;
        lux_half4_load8(src + 4 * i, &R, &G, &B, &A);
        _mm256_storeu_ps(r + i, R);
        _mm256_storeu_ps(g + i, G);
        _mm256_storeu_ps(b + i, B);
        _mm256_storeu_ps(a + i, A);
    }
    lux_half4_to_planar_portable(src + 4 * i, r + i, g + i, b + i, a + i, n - i);
}

__attribute__((target("avx2,f16c")))
static void lux_planar_to_half4_f16c(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t n, int stream) {
    size_t i = 0;
    // Streaming (non-temporal) stores skip reading the destination lines first; they need 16-byte alignment.
    if (stream && ((uintptr_t)dst & 15) != 0) stream = 0;
    for (; i + 8 <= n; i += 8) {
        lux_half4_store8(dst + 4 * i, _mm256_loadu_ps(r + i), _mm256_loadu_ps(g + i), _mm256_loadu_ps(b + i),
                         _mm256_loadu_ps(a + i), stream);
    }
    if (stream) _mm_sfence();
    lux_planar_to_half4_portable(r + i, g + i, b + i, a + i, dst + 4 * i, n - i);
}
#endif

void lux_half4_to_planar(const uint16_t *src, float *r, float *g, float *b, float *a, size_t count) {
    LUX_DISPATCH(lux_half4_to_planar_f16c(src, r, g, b, a, count),
                 lux_half4_to_planar_portable(src, r, g, b, a, count));
}

void lux_planar_to_half4(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t count) {
    LUX_DISPATCH(lux_planar_to_half4_f16c(r, g, b, a, dst, count, 0),
                 lux_planar_to_half4_portable(r, g, b, a, dst, count));
}

void lux_planar_to_half4_streaming(const float *r, const float *g, const float *b, const float *a, uint16_t *dst, size_t count) {
    LUX_DISPATCH(lux_planar_to_half4_f16c(r, g, b, a, dst, count, 1),
                 lux_planar_to_half4_portable(r, g, b, a, dst, count));
}
