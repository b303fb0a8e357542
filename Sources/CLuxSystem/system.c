#include "CLuxSystem.h"
#include <errno.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
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

int lux_set_mmap_threshold(size_t bytes) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, (int)bytes) == 1;
#else
    (void)bytes;
    return 0;
#endif
}
