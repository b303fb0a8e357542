// RACE_THREADS threads wait at a barrier (STAGGER=1: then 0-3 ms apart), then each makes the process's first use of LibRaw
// (libraw_r, as Lux links it): open a camera raw from memory, unpack, develop with defaults, hash the image; compared
// with a sequential run afterwards. Exit status 1 on a mismatch.
#include "race.h"
#include <libraw.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *file; static size_t file_size;

static uint64_t work(void) {
    libraw_data_t *r = libraw_init(0);
    r->params.use_camera_wb = 1; r->params.half_size = 1;
    if (libraw_open_buffer(r, file, file_size) || libraw_unpack(r) || libraw_dcraw_process(r)) exit(2);
    int err; libraw_processed_image_t *img = libraw_dcraw_make_mem_image(r, &err);
    uint64_t h = RACE_FNV_START;
    for (unsigned i = 0; i < img->data_size; i++) h = (h ^ img->data[i]) * 1099511628211ull;
    libraw_dcraw_clear_mem(img); libraw_close(r);
    return h;
}

int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); file_size = ftell(f); rewind(f);
    file = malloc(file_size); fread(file, 1, file_size, f); fclose(f);
    return race_run("libraw", work);
}
