#include "CLuxKernels.h"
#include <unistd.h>

int lux_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
