// An opaque byte copy (see lux_copy_bytes in CLuxKernels.h for why Swift code calls it).
#include "CLuxKernels.h"

#include <string.h>

void lux_copy_bytes(void *dst, const void *src, size_t count) { memmove(dst, src, count); }
