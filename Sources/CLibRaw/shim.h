// LibRaw's C interface (the thread-safe build, libraw_r). libraw.h includes what it uses itself.
#include <libraw.h>
