// The vector width of the lane-generic row kernels (lanes.h): 8 with AVX2, 4 on other x86 CPUs, 1 elsewhere, or
// what a test forces on its thread.
#include "CLuxKernels.h"

#include "x86.h"

// Per thread: a test forcing a width must not switch the paths of tests running beside it.
static _Thread_local int lux_forced_lanes = 0;
// Whether any thread ever forced a width: until then the thread-local is not read (every row kernel call asks).
static int lux_lanes_forced_once = 0;

void lux_force_lanes(int lanes) {
    __atomic_store_n(&lux_lanes_forced_once, 1, __ATOMIC_RELAXED);
    lux_forced_lanes = lanes;
}

int lux_lanes(void) {
    if (__atomic_load_n(&lux_lanes_forced_once, __ATOMIC_RELAXED) && lux_forced_lanes > 0) return lux_forced_lanes;
#if LUX_X86
    // Detected once; threads may race to fill it and all store the same value.
    static int detected = 0;
    int lanes = __atomic_load_n(&detected, __ATOMIC_RELAXED);
    if (lanes == 0) {
        __builtin_cpu_init();
        lanes = __builtin_cpu_supports("avx2") ? 8 : 4;
        __atomic_store_n(&detected, lanes, __ATOMIC_RELAXED);
    }
    return lanes;
#else
    return 1;
#endif
}
