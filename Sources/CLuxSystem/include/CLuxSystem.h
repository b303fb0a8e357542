#ifndef CLUX_SYSTEM_H
#define CLUX_SYSTEM_H

// The few operating-system calls Swift cannot make directly (variadic functions, glibc-only knobs). They live
// apart from CLuxKernels, which holds only the runtime-dispatched row kernels.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The number of online processors (at least 1).
int lux_cpu_count(void);

/// ioctl(2) with a pointer argument (Swift cannot call the variadic libc function), retried on EINTR; returns 0 or
/// errno.
int lux_ioctl(int fd, unsigned long request, void *argument);

/// Fixes glibc malloc's mmap threshold at `bytes` (blocks that large get maps of their own, returned to the kernel
/// when freed; the threshold no longer rises as such blocks are freed). Returns 1 when set, 0 elsewhere than glibc.
int lux_set_mmap_threshold(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
