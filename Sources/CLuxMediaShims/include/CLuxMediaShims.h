#ifndef CLUX_MEDIA_SHIMS_H
#define CLUX_MEDIA_SHIMS_H

// What LuxCodecs needs from FFmpeg's libraries that Swift cannot reach: error codes that are macros
// (AVERROR_EOF, AVERROR(EAGAIN)), a log callback (FFmpeg's takes a va_list), the once-only setup of
// FFmpeg's process-wide state, and FFmpeg itself: its libraries are loaded on first use (dlopen), so a
// command that never touches a movie does not pay for mapping FFmpeg and the ~130 libraries it brings
// (start-up 49 ms and 50 MB → 13 ms and 25 MB for `lux --version`). LuxCodecs calls FFmpeg only through
// the function table below; its headers are used for their types.

#include <stddef.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/frame.h>
#include <libavutil/mem.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#ifdef __cplusplus
extern "C" {
#endif

// Every FFmpeg function LuxCodecs calls, with the library that exports it.
#define LUX_AV_FUNCTIONS(X) \
    X(avutil, av_channel_layout_copy) \
    X(avutil, av_channel_layout_default) \
    X(avutil, av_d2q) \
    X(avutil, av_dict_free) \
    X(avutil, av_dict_set) \
    X(avutil, av_frame_alloc) \
    X(avutil, av_frame_free) \
    X(avutil, av_frame_get_buffer) \
    X(avutil, av_frame_is_writable) \
    X(avutil, av_frame_unref) \
    X(avutil, av_free) \
    X(avutil, av_freep) \
    X(avutil, av_get_packed_sample_fmt) \
    X(avutil, av_get_pix_fmt_name) \
    X(avutil, av_log_set_callback) \
    X(avutil, av_malloc) \
    X(avutil, av_max_alloc) \
    X(avutil, av_pix_fmt_desc_get) \
    X(avutil, av_sample_fmt_is_planar) \
    X(avutil, av_strerror) \
    X(avutil, av_version_info) \
    X(swscale, sws_freeContext) \
    X(swscale, sws_getCoefficients) \
    X(swscale, sws_getContext) \
    X(swscale, sws_scale) \
    X(swscale, sws_setColorspaceDetails) \
    X(avcodec, av_packet_alloc) \
    X(avcodec, av_packet_free) \
    X(avcodec, av_packet_unref) \
    X(avcodec, avcodec_alloc_context3) \
    X(avcodec, avcodec_find_decoder) \
    X(avcodec, avcodec_find_encoder) \
    X(avcodec, avcodec_find_encoder_by_name) \
    X(avcodec, avcodec_free_context) \
    X(avcodec, avcodec_open2) \
    X(avcodec, avcodec_parameters_to_context) \
    X(avcodec, avcodec_receive_frame) \
    X(avcodec, avcodec_receive_packet) \
    X(avcodec, avcodec_send_frame) \
    X(avcodec, avcodec_send_packet) \
    X(avformat, av_codec_get_id) \
    X(avformat, av_find_input_format) \
    X(avformat, av_read_frame) \
    X(avformat, avformat_alloc_context) \
    X(avformat, avformat_close_input) \
    X(avformat, avformat_get_mov_audio_tags) \
    X(avformat, avformat_get_mov_video_tags) \
    X(avformat, avformat_open_input) \
    X(avformat, avio_alloc_context) \
    X(avformat, avio_context_free)

/// FFmpeg's functions, each field named after the function it points to. Valid (every field set) once
/// lux_av_load has returned 0; read it through lux_av().
struct lux_av_api {
#define LUX_AV_FIELD(library, name) __typeof__(&name) _Nonnull name;
    LUX_AV_FUNCTIONS(LUX_AV_FIELD)
#undef LUX_AV_FIELD
};

/// The table lux_av_load fills.
extern struct lux_av_api lux_av_api_storage;

/// FFmpeg's functions: only after lux_av_load has returned 0.
static inline const struct lux_av_api *_Nonnull lux_av(void) { return &lux_av_api_storage; }

/// Loads FFmpeg's libraries (libavutil, libswscale, libavcodec, libavformat, with the major versions of the
/// headers Lux was built with) and fills the function table, then prepares FFmpeg's process-wide state: sets
/// av_max_alloc to lux_av_largest_allocation(), and routes FFmpeg's log away from standard error (the last
/// error message logged on each thread is kept for lux_av_take_log_message; anything less severe is
/// dropped; LUX_FFMPEG_LOG=1 in the environment keeps FFmpeg's own printing, for debugging).
///
/// Runs once per process (thread-safe); every call returns the first call's result: 0 when FFmpeg is ready,
/// -1 when a library or a function is missing, with the reason in lux_av_load_failure().
int lux_av_load(void);

/// Why lux_av_load failed ("libavcodec.so.59: cannot open shared object file..."); empty when it did not.
const char *_Nonnull lux_av_load_failure(void);

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

/// The most FFmpeg may allocate in one piece once lux_av_load has run: 80 MiB, a little more than the
/// largest plane FFmpeg allocates for an 8K (7680 x 4320) frame of 16-bit samples with its padding.
///
/// A hostile movie header makes FFmpeg's demuxer allocate a table sized by a count it claims (a 'keys' atom
/// claiming 134 million entries: 1 GiB, zeroed and then freed entry by entry, seconds of work) before it
/// finds the table's contents missing. FFmpeg's own limit is 2 GiB; with this one every such table fails at
/// once with AVERROR(ENOMEM), and the work any header can cause stays proportional to 80 MiB.
size_t lux_av_largest_allocation(void);

/// Copies the last error FFmpeg logged on the calling thread since the previous call into `message` (at most
/// `capacity` bytes, NUL-terminated; empty when there was none) and forgets it.
void lux_av_take_log_message(char *_Nonnull message, size_t capacity);

/// Converts rows `first_row`… (`rows` of them) of an 8-bit planar Y′CbCr 4:2:0 picture `width` × `height` (a
/// decoder's picture) into 8-bit RGBA (alpha 255). Chroma is interpolated linearly: vertically between the two
/// nearest chroma rows (which sit midway between luma rows), horizontally between samples sited on the even luma
/// columns (`centred` 0: H.264's and HEVC's default) or midway between them (`centred` 1: JPEG's). With u = Cb − 128,
/// v = Cr − 128 and `matrix` = {ys, yo, rv, gu, gv, bu}: R = ys·(Y − yo) + rv·v, G = ys·(Y − yo) − gu·u − gv·v,
/// B = ys·(Y − yo) + bu·u, each rounded and clamped to 0…255. Returns 0, or −1 when the rows lie outside the picture
/// or memory runs out. Uses AVX2 when the CPU has it (the same values).
int lux_yuv420_rows_to_rgba8(const uint8_t *_Nonnull luma, size_t luma_stride, const uint8_t *_Nonnull cb,
                             size_t cb_stride, const uint8_t *_Nonnull cr, size_t cr_stride, size_t width,
                             size_t height, const float matrix[_Nonnull 6], int centred, uint8_t *_Nonnull dst,
                             size_t dst_stride, size_t first_row, size_t rows);

/// Converts row pairs `first_pair`… (`pairs` of them) of an 8-bit RGBA picture `width` × `height` into planar
/// Y′CbCr 4:2:0 (an encoder's picture): Y = yo + yr·R + yg·G + yb·B for each pixel, and Cb = uo + ur·ΣR + ug·ΣG +
/// ub·ΣB (Cr likewise with the v row) over the sums of each 2 × 2 block (the edge pixels repeated at an odd width or
/// height), with `matrix` = {yr, yg, yb, yo, ur, ug, ub, uo, vr, vg, vb, vo}; codes rounded and clamped to 0…255.
void lux_rgba8_to_yuv420(const uint8_t *_Nonnull src, size_t src_stride, size_t width, size_t height,
                         const float matrix[_Nonnull 12], uint8_t *_Nonnull luma, size_t luma_stride,
                         uint8_t *_Nonnull cb, size_t cb_stride, uint8_t *_Nonnull cr, size_t cr_stride,
                         size_t first_pair, size_t pairs);

#ifdef __cplusplus
}
#endif

#endif
