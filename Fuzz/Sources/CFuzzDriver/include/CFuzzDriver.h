#ifndef LUX_FUZZ_DRIVER_H
#define LUX_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// One fuzz input: returns 0 (libFuzzer's convention).
typedef int (*lux_fuzz_callback)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver (command-line flags, corpus, mutation loop) on `callback`.
int lux_fuzz_run(int argc, char **argv, lux_fuzz_callback callback);

#endif
