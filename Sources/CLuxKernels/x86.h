// Whether this build targets x86 (then the kernels offer AVX2/F16C loops chosen at run time).
#ifndef LUX_X86_H
#define LUX_X86_H

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LUX_X86 1
#else
#define LUX_X86 0
#endif

#endif
