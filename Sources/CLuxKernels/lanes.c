// The vector width of the lane-generic row kernels (lanes.h): 8 with AVX2, 4 on other x86 CPUs, 1 elsewhere, or
// what a test forces on its thread.
#include "CLuxKernels.h"

#include "x86.h"

// Per thread: a test forcing a width must not switch the paths of tests running beside it.
static _Thread_local int lux_forced_lanes = 0;
// Whether any thread ever forced a width or the portable loops: until then the thread-locals are not read.
static int lux_lanes_forced_once = 0;

int lux_lanes_unforced = 0;

void lux_lanes_forget(void) {
    // The flag first, then the cached width: a thread caching a width concurrently checks the flag after storing
    // it (both sequentially consistent), so one of the two clears it.
    __atomic_store_n(&lux_lanes_forced_once, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&lux_lanes_unforced, 0, __ATOMIC_SEQ_CST);
}

void lux_force_lanes(int lanes) {
    lux_lanes_forget();
    lux_forced_lanes = lanes;
}

int lux_lanes(void) {
    int forced = __atomic_load_n(&lux_lanes_forced_once, __ATOMIC_SEQ_CST);
    if (forced && lux_forced_lanes > 0) return lux_forced_lanes;
#if LUX_X86
    // The CPU detection the other kernels use (x86.h's LUX_DISPATCH): 8 lanes where their AVX2 paths run.
    int lanes = lux_has_f16c() ? 8 : 4;
#else
    int lanes = 1;
#endif
    if (!forced) {
        __atomic_store_n(&lux_lanes_unforced, lanes, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&lux_lanes_forced_once, __ATOMIC_SEQ_CST)) {
            __atomic_store_n(&lux_lanes_unforced, 0, __ATOMIC_SEQ_CST);
        }
    }
    return lanes;
}
