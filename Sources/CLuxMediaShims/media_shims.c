#include "CLuxMediaShims.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>

int lux_av_error_eof(void) { return AVERROR_EOF; }
int lux_av_error_again(void) { return AVERROR(EAGAIN); }
int lux_av_error_exit(void) { return AVERROR_EXIT; }
int lux_av_error_invalid_data(void) { return AVERROR_INVALIDDATA; }
int lux_av_error_no_memory(void) { return AVERROR(ENOMEM); }
size_t lux_av_largest_allocation(void) { return (size_t)80 << 20; }

static _Thread_local char last_message[512];

static void keep_message(void *avcl, int level, const char *format, va_list args) {
    (void)avcl;
    if (level > AV_LOG_ERROR) return;
    char line[sizeof last_message];
    vsnprintf(line, sizeof line, format, args);
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = 0;
    if (n > 0) memcpy(last_message, line, n + 1);
}

static void install(void) {
    av_max_alloc(lux_av_largest_allocation());
    const char *debug = getenv("LUX_FFMPEG_LOG");
    if (debug && strcmp(debug, "1") == 0) return;
    av_log_set_callback(keep_message);
}

void lux_av_prepare(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
}

void lux_av_take_log_message(char *message, size_t capacity) {
    if (capacity == 0) return;
    size_t n = strlen(last_message);
    if (n >= capacity) n = capacity - 1;
    memcpy(message, last_message, n);
    message[n] = 0;
    last_message[0] = 0;
}
