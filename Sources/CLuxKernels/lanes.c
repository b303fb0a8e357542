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
    // The CPU detection the other kernels use (x86.h's LUX_DISPATCH): 8 lanes where their AVX2 paths run.
    return lux_has_f16c() ? 8 : 4;
#else
    return 1;
#endif
}
