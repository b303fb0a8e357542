// The vector width of the lane-generic row kernels (lanes.h): 8 with AVX2, 4 on other x86 CPUs, 1 elsewhere, or
// what a test forces on its thread.
#include "CLuxKernels.h"

#include "x86.h"

// Per thread: a test forcing a width must not switch the paths of tests running beside it.
static _Thread_local int lux_forced_lanes = 0;

void lux_force_lanes(int lanes) { lux_forced_lanes = lanes; }

int lux_lanes(void) {
    if (lux_forced_lanes > 0) return lux_forced_lanes;
#if LUX_X86
    return lux_has_f16c() ? 8 : 4;
#else
    return 1;
#endif
}
