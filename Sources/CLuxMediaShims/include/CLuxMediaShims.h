#ifndef CLUX_MEDIA_SHIMS_H
#define CLUX_MEDIA_SHIMS_H

// What LuxCodecs needs from FFmpeg's libraries that Swift cannot reach: error codes that are macros
// (AVERROR_EOF, AVERROR(EAGAIN)), a log callback (FFmpeg's takes a va_list) and the once-only setup of
// FFmpeg's process-wide state. Everything else is called from Swift directly. No FFmpeg type appears in
// this header.

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

/// AVERROR(ENOMEM): an allocation failed, or asked for more than lux_av_largest_allocation() bytes.
int lux_av_error_no_memory(void);

/// The most FFmpeg may allocate in one piece once lux_av_prepare has run: 80 MiB, a little more than the
/// largest plane FFmpeg allocates for an 8K (7680 x 4320) frame of 16-bit samples with its padding.
///
/// A hostile movie header makes FFmpeg's demuxer allocate a table sized by a count it claims (a 'keys' atom
/// claiming 134 million entries: 1 GiB, zeroed and then freed entry by entry, seconds of work) before it
/// finds the table's contents missing. FFmpeg's own limit is 2 GiB; with this one every such table fails at
/// once with AVERROR(ENOMEM), and the work any header can cause stays proportional to 80 MiB.
size_t lux_av_largest_allocation(void);

/// Prepares FFmpeg's process-wide state (idempotent, thread-safe; call before any other FFmpeg use): sets
/// av_max_alloc to lux_av_largest_allocation(), and routes FFmpeg's log away from standard error: the last
/// error message logged on each thread is kept for lux_av_take_log_message, anything less severe is dropped.
/// Setting the environment variable LUX_FFMPEG_LOG=1 before the first call keeps FFmpeg's own printing
/// instead (for debugging).
void lux_av_prepare(void);

/// Copies the last error FFmpeg logged on the calling thread since the previous call into `message` (at most
/// `capacity` bytes, NUL-terminated; empty when there was none) and forgets it.
void lux_av_take_log_message(char *message, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
