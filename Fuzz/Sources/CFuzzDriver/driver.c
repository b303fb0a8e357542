#include "CFuzzDriver.h"

// libFuzzer's entry for programs that have their own main (compiler-rt FuzzerDriver.cpp).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int lux_fuzz_run(int argc, char **argv, lux_fuzz_callback callback) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
