#include "CLuxKernels.h"
#include <errno.h>
#include <sys/ioctl.h>
#include <unistd.h>

int lux_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int lux_ioctl(int fd, unsigned long request, void *argument) {
    int r;
    do {
        r = ioctl(fd, request, argument);
    } while (r == -1 && errno == EINTR);
    return r == -1 ? errno : 0;
}
