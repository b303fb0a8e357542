// The positive control: RACE_THREADS threads wait at a barrier (STAGGER=1: then 0-3 ms apart) and make the process's first
// x265_encoder_open (x265's unguarded x265_setup_primitives / x265_set_globals, x265 issue #245); each encodes one
// frame and hashes it; compared with a sequential run afterwards. Exit status 1 on a mismatch; a crash is the bug.
#include "race.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <x265.h>

enum { W = 256, H = 128 };
static uint8_t planes[3][W * H];

static uint64_t work(void) {
    const x265_api *api = x265_api_get(8);
    x265_param *p = api->param_alloc();
    api->param_default_preset(p, "ultrafast", "zerolatency");
    p->sourceWidth = W; p->sourceHeight = H; p->fpsNum = 30; p->fpsDenom = 1; p->logLevel = X265_LOG_NONE;
    p->frameNumThreads = 1; p->bEnableWavefront = 0; api->param_parse(p, "pools", "none");
    x265_encoder *e = api->encoder_open(p);
    if (!e) exit(2);
    x265_picture pic; api->picture_init(p, &pic);
    for (int i = 0; i < 3; i++) { pic.planes[i] = planes[i]; pic.stride[i] = i ? W / 2 : W; }
    x265_nal *nal; uint32_t n; uint64_t h = RACE_FNV_START;
    for (int call = 0; call < 8; call++) {  // the picture, then flushes until the encoder is empty
        int r = api->encoder_encode(e, &nal, &n, call ? NULL : &pic, NULL);
        for (uint32_t i = 0; i < n; i++) for (uint32_t k = 0; k < nal[i].sizeBytes; k++) h = (h ^ nal[i].payload[k]) * 1099511628211ull;
        if (call && r <= 0) break;
    }
    api->encoder_close(e); api->param_free(p);
    return h;
}

int main(void) {
    for (int i = 0; i < W * H; i++) { planes[0][i] = (uint8_t)(i * 7 ^ (i >> 5)); planes[1][i] = 128; planes[2][i] = 100; }
    return race_run("x265", work);
}
