#include "CLuxMediaShims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/error.h>
#include <libavutil/log.h>

int lux_av_error_eof(void) { return AVERROR_EOF; }
int lux_av_error_again(void) { return AVERROR(EAGAIN); }
int lux_av_error_exit(void) { return AVERROR_EXIT; }
int lux_av_error_invalid_data(void) { return AVERROR_INVALIDDATA; }
int lux_av_error_no_memory(void) { return AVERROR(ENOMEM); }
size_t lux_av_largest_allocation(void) { return (size_t)80 << 20; }

struct lux_av_api lux_av_api_storage;

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

#define LUX_STRING(x) #x
#define LUX_SONAME(library, major) "lib" #library ".so." LUX_STRING(major)

static int load_result = -1;
static char load_failure[512];

// Opens one library by the soname the headers name; the handle is kept for the life of the process.
static void *open_library(const char *soname) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) snprintf(load_failure, sizeof load_failure, "%s", dlerror());
    return handle;
}

static void load(void) {
    void *avutil = open_library(LUX_SONAME(avutil, LIBAVUTIL_VERSION_MAJOR));
    if (!avutil) return;
    void *swscale = open_library(LUX_SONAME(swscale, LIBSWSCALE_VERSION_MAJOR));
    if (!swscale) return;
    void *avcodec = open_library(LUX_SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR));
    if (!avcodec) return;
    void *avformat = open_library(LUX_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR));
    if (!avformat) return;
#define LUX_AV_RESOLVE(library, name) \
    { \
        void *symbol = dlsym(library, #name); \
        if (!symbol) { \
            snprintf(load_failure, sizeof load_failure, "lib%s has no %s", #library, #name); \
            return; \
        } \
        lux_av_api_storage.name = (__typeof__(&name))symbol; \
    }
    LUX_AV_FUNCTIONS(LUX_AV_RESOLVE)
#undef LUX_AV_RESOLVE
    lux_av_api_storage.av_max_alloc(lux_av_largest_allocation());
    const char *debug = getenv("LUX_FFMPEG_LOG");
    if (!(debug && strcmp(debug, "1") == 0)) lux_av_api_storage.av_log_set_callback(keep_message);
    load_result = 0;
}

int lux_av_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load);
    return load_result;
}

const char *lux_av_load_failure(void) { return load_failure; }

void lux_av_take_log_message(char *message, size_t capacity) {
    if (capacity == 0) return;
    size_t n = strlen(last_message);
    if (n >= capacity) n = capacity - 1;
    memcpy(message, last_message, n);
    message[n] = 0;
    last_message[0] = 0;
}
