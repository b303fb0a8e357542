// Whether this build targets x86 (then the kernels offer AVX2/F16C loops chosen at run time).
#ifndef LUX_X86_H
#define LUX_X86_H

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LUX_X86 1
#else
#define LUX_X86 0
#endif

// Runs `fast` (a loop for AVX2, F16C and FMA) when the CPU has those units and `portable` otherwise; elsewhere than
// x86 only `portable` is compiled. Both must compute the same values.
#if LUX_X86
#define LUX_DISPATCH(fast, portable) \
    do {                             \
        if (lux_has_f16c()) {        \
            fast;                    \
        } else {                     \
            portable;                \
        }                            \
    } while (0)
#else
#define LUX_DISPATCH(fast, portable) \
    do {                             \
        portable;                    \
    } while (0)
#endif

#endif
