#ifndef CLUX_MEDIA_SHIMS_H
#define CLUX_MEDIA_SHIMS_H

// What LuxCodecs needs from FFmpeg's libraries that Swift cannot reach: error codes that are macros
// (AVERROR_EOF, AVERROR(EAGAIN)) and a log callback (FFmpeg's takes a va_list). Everything else is
// called from Swift directly. No FFmpeg type appears in this header.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// AVERROR_EOF: the decoder or demuxer has nothing more.
int lux_av_error_eof(void);

/// AVERROR(EAGAIN): the decoder or encoder wants input before it can give output.
int lux_av_error_again(void);

/// AVERROR_EXIT: an interrupt callback or an I/O callback asked FFmpeg to stop.
int lux_av_error_exit(void);

/// AVERROR_INVALIDDATA: the input is damaged.
int lux_av_error_invalid_data(void);

/// Routes FFmpeg's log away from standard error (idempotent, thread-safe): the last error message logged on
/// each thread is kept for lux_av_take_log_message, anything less severe is dropped. Setting the environment
/// variable LUX_FFMPEG_LOG=1 before the first call keeps FFmpeg's own printing instead (for debugging).
void lux_av_capture_log(void);

/// Copies the last error FFmpeg logged on the calling thread since the previous call into `message` (at most
/// `capacity` bytes, NUL-terminated; empty when there was none) and forgets it.
void lux_av_take_log_message(char *message, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
