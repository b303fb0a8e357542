// libjpeg-turbo entry points with setjmp-based error handling kept inside C.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include <limits.h>

#include "CLuxCodecShims.h"

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
    size_t capacity;
    int strict;
    int fatal_warning;
} lux_jpeg_error;

static void lux_copy_message(char *dst, size_t capacity, const char *src) {
    if (dst == NULL || capacity == 0) return;
    size_t n = strlen(src);
    if (n >= capacity) n = capacity - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static void lux_jpeg_error_exit(j_common_ptr cinfo) {
    lux_jpeg_error *err = (lux_jpeg_error *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    lux_copy_message(err->message, err->capacity, buffer);
    longjmp(err->jump, 1);
}

// Warnings that mean the picture is damaged (truncated or corrupt entropy-coded data).
static int lux_jpeg_is_damage(int code) {
    return code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER || code == JWRN_HUFF_BAD_CODE ||
           code == JWRN_MUST_RESYNC || code == JWRN_BOGUS_PROGRESSION || code == JWRN_ARITH_BAD_CODE;
}

static void lux_jpeg_emit_message(j_common_ptr cinfo, int level) {
    lux_jpeg_error *err = (lux_jpeg_error *)cinfo->err;
    if (level >= 0) return;  // trace messages
    if (err->strict && lux_jpeg_is_damage(err->pub.msg_code) && !err->fatal_warning) {
        char buffer[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, buffer);
        lux_copy_message(err->message, err->capacity, buffer);
        err->fatal_warning = 1;
    }
    err->pub.num_warnings++;
}

static void lux_jpeg_install(lux_jpeg_error *err, char *message, size_t capacity, int strict) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = lux_jpeg_error_exit;
    err->pub.emit_message = lux_jpeg_emit_message;
    err->message = message;
    err->capacity = capacity;
    err->strict = strict;
    err->fatal_warning = 0;
}

typedef struct {
    struct jpeg_decompress_struct cinfo;
    lux_jpeg_error err;
    struct jpeg_progress_mgr progress;
    int max_scans;
    uint8_t *scratch;  // rows decoded only as context for the rows after them (band decodes)
} lux_jpeg_decoder;

// Called by libjpeg between passes: refuses progressive files with more scans than allowed (the check
// libjpeg-turbo's djpeg -maxscans and TurboJPEG's scan limit make).
static void lux_jpeg_progress(j_common_ptr common) {
    lux_jpeg_decoder *ctx = (lux_jpeg_decoder *)common;  // cinfo is the first member
    struct jpeg_decompress_struct *cinfo = &ctx->cinfo;
    if (ctx->max_scans > 0 && cinfo->is_decompressor && cinfo->progressive_mode &&
        cinfo->input_scan_number > ctx->max_scans) {
        char buffer[JMSG_LENGTH_MAX];
        snprintf(buffer, sizeof buffer, "the progressive JPEG has more than %d scans (a decompression bomb?)",
                 ctx->max_scans);
        lux_copy_message(ctx->err.message, ctx->err.capacity, buffer);
        longjmp(ctx->err.jump, 1);
    }
}

static int lux_jpeg_fail(lux_jpeg_decoder *ctx) {
    jpeg_destroy_decompress(&ctx->cinfo);
    free(ctx->scratch);
    free(ctx);
    return -1;
}

// Creates a decompressor for `data`, reads its header, checks the frame size and colour model and starts the
// decode (scaled by 1/scale_denom). Called after the caller's setjmp on ctx->err.jump: libjpeg's errors jump there.
// Returns 0, or -1 with a message (the caller then calls lux_jpeg_fail).
static int lux_jpeg_begin(lux_jpeg_decoder *ctx, const uint8_t *data, size_t size, int out_layout,
                          int expected_width, int expected_height, int scale_denom, size_t max_memory, int max_scans,
                          char *message, size_t capacity) {
    struct jpeg_decompress_struct *cinfo = &ctx->cinfo;
    jpeg_create_decompress(cinfo);
    // Virtual arrays beyond this fail with JERR_NO_BACKING_STORE (jmemnobs has no temporary files).
    if (max_memory > 0) cinfo->mem->max_memory_to_use = (long)(max_memory > LONG_MAX ? LONG_MAX : max_memory);
    ctx->max_scans = max_scans;
    ctx->progress.progress_monitor = lux_jpeg_progress;
    cinfo->progress = &ctx->progress;
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
    if ((int)cinfo->image_width != expected_width || (int)cinfo->image_height != expected_height) {
        lux_copy_message(message, capacity, "the frame size differs from the size found in the header");
        return -1;
    }
    const int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    if (cmyk != (out_layout == LUX_JPEG_OUT_CMYK)) {
        lux_copy_message(message, capacity,
                         cmyk ? "a CMYK JPEG must be decoded to CMYK samples" : "only CMYK JPEGs decode to CMYK");
        return -1;
    }
    cinfo->out_color_space = out_layout == LUX_JPEG_OUT_GRAY   ? JCS_GRAYSCALE
                             : out_layout == LUX_JPEG_OUT_CMYK ? JCS_CMYK
                                                               : JCS_EXT_RGBA;
    if (scale_denom > 1) {
        cinfo->scale_num = 1;
        cinfo->scale_denom = (unsigned int)scale_denom;
    }
    jpeg_start_decompress(cinfo);
    if (scale_denom > 1 && ((int)cinfo->output_width != (expected_width + scale_denom - 1) / scale_denom ||
                            (int)cinfo->output_height != (expected_height + scale_denom - 1) / scale_denom)) {
        lux_copy_message(message, capacity, "the reduced frame size differs from the expected one");
        return -1;
    }
    return 0;
}

// Decodes output rows up to `end` into row pointers from `row(ctx, y, info)`; returns 0, or -1 with the message set
// (damage when strict, data ending early). Called after the caller's setjmp.
static int lux_jpeg_read_until(lux_jpeg_decoder *ctx, JDIMENSION end, JDIMENSION first, uint8_t *pixels,
                               size_t stride, char *message, size_t capacity) {
    struct jpeg_decompress_struct *cinfo = &ctx->cinfo;
    while (cinfo->output_scanline < end) {
        JSAMPROW rows[8];
        int n = 0;
        while (n < 8 && cinfo->output_scanline + (JDIMENSION)n < end) {
            const JDIMENSION y = cinfo->output_scanline + (JDIMENSION)n;
            rows[n] = y < first ? ctx->scratch : pixels + (size_t)(y - first) * stride;
            n++;
        }
        if (jpeg_read_scanlines(cinfo, rows, (JDIMENSION)n) == 0) break;
        if (ctx->err.fatal_warning) return -1;
    }
    if (cinfo->output_scanline < end) {
        lux_copy_message(message, capacity, "the image data ended before the last row");
        return -1;
    }
    return 0;
}

// Decodes output rows first_row ..< first_row + row_count (row_count < 0: to the end) into `pixels` (which holds
// row first_row); the rows before first_row are decoded into a scratch row and dropped, and decoding stops after
// the last row asked for.
static int lux_jpeg_decode_impl(const uint8_t *data, size_t size, int out_layout, uint8_t *pixels, size_t stride,
                                int expected_width, int expected_height, int scale_denom, int first_row,
                                int row_count, int strict, size_t max_memory, int max_scans, char *message,
                                size_t capacity) {
    lux_jpeg_decoder *const ctx = (lux_jpeg_decoder *)calloc(1, sizeof(lux_jpeg_decoder));
    if (ctx == NULL) {
        lux_copy_message(message, capacity, "out of memory");
        return -1;
    }
    struct jpeg_decompress_struct *cinfo = &ctx->cinfo;
    lux_jpeg_install(&ctx->err, message, capacity, strict);
    cinfo->err = &ctx->err.pub;
    if (setjmp(ctx->err.jump)) return lux_jpeg_fail(ctx);
    if (lux_jpeg_begin(ctx, data, size, out_layout, expected_width, expected_height, scale_denom, max_memory,
                       max_scans, message, capacity) != 0)
        return lux_jpeg_fail(ctx);
    const JDIMENSION first = (JDIMENSION)first_row;
    const JDIMENSION end = row_count < 0 ? cinfo->output_height : first + (JDIMENSION)row_count;
    if (first > 0) {
        ctx->scratch = (uint8_t *)malloc((size_t)cinfo->output_width * (size_t)cinfo->output_components);
        if (ctx->scratch == NULL) {
            lux_copy_message(message, capacity, "out of memory");
            return lux_jpeg_fail(ctx);
        }
    }
    if (lux_jpeg_read_until(ctx, end, first, pixels, stride, message, capacity) != 0) return lux_jpeg_fail(ctx);
    if (end == cinfo->output_height) {
        jpeg_finish_decompress(cinfo);
        if (ctx->err.fatal_warning) return lux_jpeg_fail(ctx);
    }
    jpeg_destroy_decompress(cinfo);  // also ends a decode stopped before its last row
    free(ctx->scratch);
    free(ctx);
    return 0;
}

lux_jpeg_rows *lux_jpeg_rows_open(const uint8_t *data, size_t size, int out_layout, int expected_width,
                                  int expected_height, size_t max_memory, int max_scans, char *message,
                                  size_t capacity) {
    lux_jpeg_decoder *const ctx = (lux_jpeg_decoder *)calloc(1, sizeof(lux_jpeg_decoder));
    if (ctx == NULL) {
        lux_copy_message(message, capacity, "out of memory");
        return NULL;
    }
    lux_jpeg_install(&ctx->err, message, capacity, 1);
    ctx->cinfo.err = &ctx->err.pub;
    if (setjmp(ctx->err.jump)) {
        lux_jpeg_fail(ctx);
        return NULL;
    }
    if (lux_jpeg_begin(ctx, data, size, out_layout, expected_width, expected_height, 1, max_memory, max_scans,
                       message, capacity) != 0) {
        lux_jpeg_fail(ctx);
        return NULL;
    }
    return (lux_jpeg_rows *)ctx;
}

int lux_jpeg_rows_read(lux_jpeg_rows *rows, uint8_t *pixels, size_t stride, int row_count, char *message,
                       size_t capacity) {
    lux_jpeg_decoder *const ctx = (lux_jpeg_decoder *)rows;
    struct jpeg_decompress_struct *cinfo = &ctx->cinfo;
    ctx->err.message = message;
    ctx->err.capacity = capacity;
    if (ctx->err.fatal_warning) {
        lux_copy_message(message, capacity, "an earlier row of the image was damaged");
        return -1;
    }
    if (row_count < 1 || (JDIMENSION)row_count > cinfo->output_height - cinfo->output_scanline) {
        lux_copy_message(message, capacity, "the rows asked for are not inside the image");
        return -1;
    }
    if (setjmp(ctx->err.jump)) {
        ctx->err.fatal_warning = 1;  // libjpeg's state is undefined after an error: no more rows
        return -1;
    }
    const JDIMENSION first = cinfo->output_scanline;
    return lux_jpeg_read_until(ctx, first + (JDIMENSION)row_count, first, pixels, stride, message, capacity);
}

size_t lux_jpeg_rows_remaining(const lux_jpeg_rows *rows) {
    const lux_jpeg_decoder *const ctx = (const lux_jpeg_decoder *)rows;
    return ctx->cinfo.src == NULL ? 0 : ctx->cinfo.src->bytes_in_buffer;
}

void lux_jpeg_rows_close(lux_jpeg_rows *rows) {
    if (rows == NULL) return;
    lux_jpeg_decoder *const ctx = (lux_jpeg_decoder *)rows;
    jpeg_destroy_decompress(&ctx->cinfo);  // also ends a decode stopped before its last row
    free(ctx->scratch);
    free(ctx);
}

int lux_jpeg_decode(const uint8_t *data, size_t size, int out_layout, uint8_t *pixels, size_t stride,
                    int expected_width, int expected_height, int strict, size_t max_memory, int max_scans,
                    char *message, size_t capacity) {
    return lux_jpeg_decode_impl(data, size, out_layout, pixels, stride, expected_width, expected_height, 1, 0, -1,
                                strict, max_memory, max_scans, message, capacity);
}

int lux_jpeg_decode_scaled(const uint8_t *data, size_t size, int out_layout, uint8_t *pixels, size_t stride,
                           int image_width, int image_height, int scale_denom, int strict, size_t max_memory,
                           int max_scans, char *message, size_t capacity) {
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        lux_copy_message(message, capacity, "the scale denominator must be 1, 2, 4 or 8");
        return -1;
    }
    return lux_jpeg_decode_impl(data, size, out_layout, pixels, stride, image_width, image_height, scale_denom, 0, -1,
                                strict, max_memory, max_scans, message, capacity);
}

int lux_jpeg_decode_rows(const uint8_t *data, size_t size, int out_layout, uint8_t *pixels, size_t stride,
                         int image_width, int image_height, int first_row, int row_count, size_t max_memory,
                         char *message, size_t capacity) {
    if (first_row < 0 || row_count < 1 || first_row > image_height - row_count) {
        lux_copy_message(message, capacity, "the rows asked for are not inside the image");
        return -1;
    }
    return lux_jpeg_decode_impl(data, size, out_layout, pixels, stride, image_width, image_height, 1, first_row,
                                row_count, 1, max_memory, 1, message, capacity);
}

long lux_jpeg_restart_intervals(const uint8_t *data, size_t size, size_t start, size_t *starts, size_t *ends,
                                long capacity) {
    long count = 0;
    size_t begin = start;  // where the current interval's data starts
    size_t p = start;
    while (p < size) {
        const uint8_t *ff = (const uint8_t *)memchr(data + p, 0xFF, size - p);
        if (ff == NULL) return -1;  // no EOI
        const size_t at = (size_t)(ff - data);
        size_t q = at + 1;
        while (q < size && data[q] == 0xFF) q++;  // fill bytes
        if (q >= size) return -1;
        const uint8_t code = data[q];
        p = q + 1;
        if (code == 0x00) continue;  // a stuffed FF data byte
        const int is_restart = code >= 0xD0 && code <= 0xD7;
        if (!is_restart && code != 0xD9) return -1;  // another marker: more scans or tables, or damage
        if (count == capacity) return -1;
        if (is_restart && code != 0xD0 + (count & 7)) return -1;  // out of sequence
        starts[count] = begin;
        ends[count] = at;
        count++;
        if (!is_restart) return count;
        begin = p;
    }
    return -1;
}

// Colour images are handed to libjpeg as raw Y'CbCr (raw_data_in) that this file computes with libjpeg's own
// arithmetic, so the conversion can run on another thread while libjpeg compresses the rows before.
enum { LUX_JPEG_SLOTS = 2, LUX_JPEG_SLOT_GROUPS = 16 };  // 128 or 256 rows: few hand-overs between the threads

struct lux_jpeg_stream {
    struct jpeg_compress_struct cinfo;
    lux_jpeg_error err;
    struct jpeg_destination_mgr dest;  // the compressed file grows in `buffer` (owned here, even after an error)
    unsigned char *buffer;
    size_t buffer_size;      // bytes written, once finished
    size_t buffer_capacity;
    int failed;
    int raw;                 // colour input converted here (0 for gray)
    int width;
    int group_rows;          // rows of an iMCU row: 8 × the luma vertical factor
    int sub_h, sub_v;        // chroma subsampling factors (1 or 2)
    int luma_width;          // whole MCUs
    int chroma_width;
    uint8_t *planes[LUX_JPEG_SLOTS][3];
    int slot_groups[LUX_JPEG_SLOTS];  // iMCU rows converted into each slot
    uint8_t *chroma_rows;    // full-resolution Cb and Cr of two rows, before downsampling
    uint8_t *carry;          // RGBA rows waiting for a whole iMCU row
    int carry_rows;
};

// The destination: libjpeg's memory destination keeps the buffer it grows to itself until the file is finished, so
// after an error the caller could neither free it nor tell it from the first one it freed; this one owns its buffer.
static void lux_jpeg_dest_init(j_compress_ptr cinfo) {
    lux_jpeg_stream *ctx = (lux_jpeg_stream *)cinfo;  // cinfo is the first member
    if (ctx->buffer == NULL) {
        ctx->buffer_capacity = 1 << 16;
        ctx->buffer = (unsigned char *)malloc(ctx->buffer_capacity);
        if (ctx->buffer == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    }
    ctx->dest.next_output_byte = ctx->buffer;
    ctx->dest.free_in_buffer = ctx->buffer_capacity;
}

static boolean lux_jpeg_dest_grow(j_compress_ptr cinfo) {
    lux_jpeg_stream *ctx = (lux_jpeg_stream *)cinfo;
    const size_t used = ctx->buffer_capacity;  // libjpeg calls this only when the buffer is full
    unsigned char *grown = (unsigned char *)realloc(ctx->buffer, 2 * used);
    if (grown == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    ctx->buffer = grown;
    ctx->buffer_capacity = 2 * used;
    ctx->dest.next_output_byte = grown + used;
    ctx->dest.free_in_buffer = used;
    return TRUE;
}

static void lux_jpeg_dest_term(j_compress_ptr cinfo) {
    lux_jpeg_stream *ctx = (lux_jpeg_stream *)cinfo;
    ctx->buffer_size = ctx->buffer_capacity - ctx->dest.free_in_buffer;
}

static void lux_jpeg_stream_release(lux_jpeg_stream *ctx) {
    jpeg_destroy_compress(&ctx->cinfo);
    free(ctx->buffer);
    ctx->buffer = NULL;
    ctx->failed = 1;
}

static void lux_jpeg_stream_free(lux_jpeg_stream *ctx) {
    for (int s = 0; s < LUX_JPEG_SLOTS; s++) free(ctx->planes[s][0]);
    free(ctx->chroma_rows);
    free(ctx->carry);
    free(ctx->buffer);
    free(ctx);
}

// libjpeg's RGB -> Y'CbCr (jccolor.c): 16-bit fixed-point constants; Y rounds half up, Cb and Cr add 0.5 - epsilon.
#define LUX_FIX(x) ((int32_t)((x) * 65536.0 + 0.5))
#define LUX_CBCR_OFFSET ((int32_t)128 << 16)

// Where the R, G and B samples of the rows to convert are: interleaved RGBA (step 4, the channels one byte apart)
// or three planes (step 1), each channel with its own row stride in bytes.
typedef struct {
    const uint8_t *channel[3];
    size_t stride[3];
} lux_rgb_source;

static lux_rgb_source lux_rgba_source(const uint8_t *rgba, size_t stride) {
    lux_rgb_source s = {{rgba, rgba + 1, rgba + 2}, {stride, stride, stride}};
    return s;
}

// Converts row `row` of `src` to Y, Cb and Cr at full resolution (luma_width samples, the last pixel repeated past
// the image), as libjpeg's colour converter and edge expansion do. `step` is a constant at each call, so the loop is
// compiled once for interleaved and once for planar samples.
static inline __attribute__((always_inline)) void lux_ycc_row_step(const lux_jpeg_stream *ctx,
                                                                   const lux_rgb_source *src, int row, int step,
                                                                   uint8_t *y, uint8_t *cb, uint8_t *cr) {
    const uint8_t *const R = src->channel[0] + (size_t)row * src->stride[0];
    const uint8_t *const G = src->channel[1] + (size_t)row * src->stride[1];
    const uint8_t *const B = src->channel[2] + (size_t)row * src->stride[2];
    const int w = ctx->width;
    for (int x = 0; x < w; x++) {
        const int32_t r = R[step * x], g = G[step * x], b = B[step * x];
        y[x] = (uint8_t)((LUX_FIX(0.29900) * r + LUX_FIX(0.58700) * g + LUX_FIX(0.11400) * b + 32768) >> 16);
        cb[x] = (uint8_t)((-LUX_FIX(0.16874) * r - LUX_FIX(0.33126) * g + LUX_FIX(0.50000) * b + LUX_CBCR_OFFSET +
                           32767) >> 16);
        cr[x] = (uint8_t)((LUX_FIX(0.50000) * r - LUX_FIX(0.41869) * g - LUX_FIX(0.08131) * b + LUX_CBCR_OFFSET +
                           32767) >> 16);
    }
    const size_t pad = (size_t)(ctx->luma_width - w);  // luma_width = sub_h × chroma_width
    memset(y + w, y[w - 1], pad);
    memset(cb + w, cb[w - 1], pad);
    memset(cr + w, cr[w - 1], pad);
}

// target_clones compiles a function for AVX2 as well as the baseline and adds a resolver that picks one by CPU, which
// the dynamic loader runs while relocating, before ThreadSanitizer's runtime is initialised: with the sanitizer's call
// on function entry in the resolver, the process crashed at load (SIGSEGV in __tsan_func_entry under
// lux_ycc_row[resolver]). Under ThreadSanitizer only the baseline is compiled.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LUX_JPEG_THREAD_SANITIZER 1
#endif
#endif
#if defined(__x86_64__) && !defined(LUX_JPEG_THREAD_SANITIZER)
#define LUX_JPEG_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define LUX_JPEG_AVX2_CLONES
#endif

// Compiled for AVX2 as well as the baseline (the compiler picks the clone once, by CPU): the same integer arithmetic,
// eight pixels a step.
LUX_JPEG_AVX2_CLONES
static void lux_ycc_row(const lux_jpeg_stream *ctx, const lux_rgb_source *src, int row, int planar, uint8_t *y,
                        uint8_t *cb, uint8_t *cr) {
    if (planar) {
        lux_ycc_row_step(ctx, src, row, 1, y, cb, cr);
    } else {
        lux_ycc_row_step(ctx, src, row, 4, y, cb, cr);
    }
}

// Downsamples one row of full-resolution chroma (`top`, and `bottom` below it for 2×2) into `out` (chroma_width
// samples) as jcsample.c does: the mean of each 2×1 or 2×2 cell with the rounding bias alternating 0, 1 (h2v1) or
// 1, 2 (h2v2) from column to column. Compiled for AVX2 as well, like lux_ycc_row.
LUX_JPEG_AVX2_CLONES
static void lux_chroma_downsample(const lux_jpeg_stream *ctx, const uint8_t *top, const uint8_t *bottom,
                                  uint8_t *out) {
    const int cw = ctx->chroma_width;
    if (ctx->sub_v == 2) {
        for (int x = 0; x < cw; x++) {
            const int bias = 1 + (x & 1);
            out[x] = (uint8_t)((top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1] + bias) >> 2);
        }
    } else if (ctx->sub_h == 2) {
        for (int x = 0; x < cw; x++) out[x] = (uint8_t)((top[2 * x] + top[2 * x + 1] + (x & 1)) >> 1);
    } else {
        memcpy(out, top, (size_t)cw);
    }
}

// Converts `groups` iMCU rows starting at row 0 of `src` into `slot`; below `rows` it makes the bottom edge libjpeg's
// preprocessor makes; Cb and Cr are downsampled by lux_chroma_downsample.
static void lux_ycc_convert(lux_jpeg_stream *ctx, const lux_rgb_source *src, int planar, int rows, int groups,
                            int slot) {
    const int lw = ctx->luma_width, cw = ctx->chroma_width;
    uint8_t *const Y = ctx->planes[slot][0], *const Cb = ctx->planes[slot][1], *const Cr = ctx->planes[slot][2];
    uint8_t *const cb0 = ctx->chroma_rows, *const cr0 = cb0 + lw, *const cb1 = cr0 + lw, *const cr1 = cb1 + lw;
    const int out_rows = groups * ctx->group_rows / ctx->sub_v;
    for (int j = 0; j < out_rows; j++) {
        const int r0 = j * ctx->sub_v;
        uint8_t *const cbo = Cb + (size_t)j * cw, *const cro = Cr + (size_t)j * cw;
        if (r0 >= rows) {
            // Below the image: libjpeg repeats the last converted row and the last downsampled row (j > 0 here).
            for (int k = 0; k < ctx->sub_v; k++) memcpy(Y + (size_t)(r0 + k) * lw, Y + (size_t)(rows - 1) * lw, (size_t)lw);
            memcpy(cbo, cbo - cw, (size_t)cw);
            memcpy(cro, cro - cw, (size_t)cw);
            continue;
        }
        lux_ycc_row(ctx, src, r0, planar, Y + (size_t)r0 * lw, cb0, cr0);
        if (ctx->sub_v == 2) {
            // An odd last row is paired with itself, as libjpeg fills its last row group.
            const int s1 = r0 + 1 < rows ? r0 + 1 : rows - 1;
            lux_ycc_row(ctx, src, s1, planar, Y + (size_t)(r0 + 1) * lw, cb1, cr1);
        }
        lux_chroma_downsample(ctx, cb0, cb1, cbo);
        lux_chroma_downsample(ctx, cr0, cr1, cro);
    }
    ctx->slot_groups[slot] = groups;
}

// Hands the iMCU rows of `slot` to libjpeg (the caller has set the setjmp).
static void lux_ycc_write(lux_jpeg_stream *ctx, int slot) {
    const int chroma_rows = ctx->group_rows / ctx->sub_v;
    for (int g = 0; g < ctx->slot_groups[slot]; g++) {
        // An iMCU row is at most 16 luma rows (vertical factor 2) and always 8 chroma rows.
        JSAMPROW y[16], cb[8], cr[8];
        for (int i = 0; i < ctx->group_rows; i++) {
            y[i] = ctx->planes[slot][0] + (size_t)(g * ctx->group_rows + i) * (size_t)ctx->luma_width;
        }
        for (int i = 0; i < chroma_rows; i++) {
            cb[i] = ctx->planes[slot][1] + (size_t)(g * chroma_rows + i) * (size_t)ctx->chroma_width;
            cr[i] = ctx->planes[slot][2] + (size_t)(g * chroma_rows + i) * (size_t)ctx->chroma_width;
        }
        JSAMPARRAY planes[3] = {y, cb, cr};
        jpeg_write_raw_data(&ctx->cinfo, planes, (JDIMENSION)ctx->group_rows);
    }
    ctx->slot_groups[slot] = 0;
}

// Allocates the raw-input buffers of a colour stream; 0 when out of memory.
static int lux_jpeg_stream_prepare_raw(lux_jpeg_stream *ctx, const lux_jpeg_encode_params *params) {
    ctx->raw = 1;
    ctx->width = params->width;
    ctx->sub_h = params->chroma_h;
    ctx->sub_v = params->chroma_v;
    ctx->group_rows = 8 * params->chroma_v;
    const int mcu_width = 8 * params->chroma_h;
    ctx->luma_width = (params->width + mcu_width - 1) / mcu_width * mcu_width;
    ctx->chroma_width = ctx->luma_width / params->chroma_h;
    const size_t luma = (size_t)ctx->luma_width * (size_t)(ctx->group_rows * LUX_JPEG_SLOT_GROUPS);
    const size_t chroma = (size_t)ctx->chroma_width * (size_t)(8 * LUX_JPEG_SLOT_GROUPS);
    for (int s = 0; s < LUX_JPEG_SLOTS; s++) {
        uint8_t *p = (uint8_t *)malloc(luma + 2 * chroma);
        if (p == NULL) return 0;
        ctx->planes[s][0] = p;
        ctx->planes[s][1] = p + luma;
        ctx->planes[s][2] = p + luma + chroma;
    }
    ctx->chroma_rows = (uint8_t *)malloc((size_t)(4 * ctx->luma_width));
    ctx->carry = (uint8_t *)malloc((size_t)ctx->group_rows * (size_t)params->width * 4);
    return ctx->chroma_rows != NULL && ctx->carry != NULL;
}

lux_jpeg_stream *lux_jpeg_stream_create(const lux_jpeg_encode_params *params, const lux_jpeg_marker *markers,
                                        int marker_count, char *message, size_t capacity) {
    // The chroma layouts the raw-input converter implements: 4:4:4, 4:2:2 and 4:2:0.
    const int h = params->chroma_h, v = params->chroma_v;
    if (params->input_components != 1 && !((h == 1 && v == 1) || (h == 2 && v == 1) || (h == 2 && v == 2))) {
        lux_copy_message(message, capacity, "chroma subsampling must be 1×1, 2×1 or 2×2");
        return NULL;
    }
    // Everything libjpeg touches lives on the heap, so nothing the error path reads is a local that
    // changed after setjmp.
    lux_jpeg_stream *const ctx = (lux_jpeg_stream *)calloc(1, sizeof(lux_jpeg_stream));
    if (ctx == NULL) {
        lux_copy_message(message, capacity, "out of memory");
        return NULL;
    }
    struct jpeg_compress_struct *cinfo = &ctx->cinfo;
    lux_jpeg_install(&ctx->err, message, capacity, 0);
    cinfo->err = &ctx->err.pub;
    if (setjmp(ctx->err.jump)) {
        lux_jpeg_stream_release(ctx);
        lux_jpeg_stream_free(ctx);
        return NULL;
    }
    jpeg_create_compress(cinfo);
    ctx->dest.init_destination = lux_jpeg_dest_init;
    ctx->dest.empty_output_buffer = lux_jpeg_dest_grow;
    ctx->dest.term_destination = lux_jpeg_dest_term;
    cinfo->dest = &ctx->dest;
    cinfo->image_width = (JDIMENSION)params->width;
    cinfo->image_height = (JDIMENSION)params->height;
    if (params->input_components == 1) {
        cinfo->input_components = 1;
        cinfo->in_color_space = JCS_GRAYSCALE;
    } else {
        cinfo->input_components = 4;
        cinfo->in_color_space = JCS_EXT_RGBA;
    }
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, params->quality, TRUE);
    if (params->input_components != 1) {
        cinfo->comp_info[0].h_samp_factor = params->chroma_h;
        cinfo->comp_info[0].v_samp_factor = params->chroma_v;
        cinfo->comp_info[1].h_samp_factor = 1;
        cinfo->comp_info[1].v_samp_factor = 1;
        cinfo->comp_info[2].h_samp_factor = 1;
        cinfo->comp_info[2].v_samp_factor = 1;
        if (!lux_jpeg_stream_prepare_raw(ctx, params)) {
            lux_copy_message(message, capacity, "out of memory");
            lux_jpeg_stream_release(ctx);
            lux_jpeg_stream_free(ctx);
            return NULL;
        }
        cinfo->raw_data_in = TRUE;
    }
    cinfo->optimize_coding = params->optimize_coding ? TRUE : FALSE;
    cinfo->write_JFIF_header = params->write_jfif ? TRUE : FALSE;
    cinfo->dct_method = params->dct_float ? JDCT_FLOAT : JDCT_ISLOW;
    if (params->progressive) jpeg_simple_progression(cinfo);
    jpeg_start_compress(cinfo, TRUE);
    for (int i = 0; i < marker_count; i++) {
        jpeg_write_marker(cinfo, markers[i].marker, markers[i].data, (unsigned int)markers[i].length);
    }
    return ctx;
}

int lux_jpeg_stream_group_rows(const lux_jpeg_stream *ctx) { return ctx->raw ? ctx->group_rows : 0; }

int lux_jpeg_stream_pending_rows(const lux_jpeg_stream *ctx) { return ctx->carry_rows; }

int lux_jpeg_stream_slot_rows(const lux_jpeg_stream *ctx) { return ctx->group_rows * LUX_JPEG_SLOT_GROUPS; }

int lux_jpeg_stream_convert(lux_jpeg_stream *ctx, int slot, const uint8_t *pixels, size_t stride, int rows) {
    // Only the slot is written (not ctx->failed, which the writing thread may be setting).
    if (!ctx->raw || ctx->carry_rows != 0 || slot < 0 || slot >= LUX_JPEG_SLOTS || rows < 1 ||
        rows % ctx->group_rows != 0 || rows > lux_jpeg_stream_slot_rows(ctx)) {
        return -1;
    }
    const lux_rgb_source src = lux_rgba_source(pixels, stride);
    lux_ycc_convert(ctx, &src, 0, rows, rows / ctx->group_rows, slot);
    return 0;
}

int lux_jpeg_stream_convert_planes(lux_jpeg_stream *ctx, int slot, const uint8_t *const planes[3],
                                   const size_t strides[3], int rows) {
    if (!ctx->raw || ctx->carry_rows != 0 || slot < 0 || slot >= LUX_JPEG_SLOTS || rows < 1 ||
        rows > lux_jpeg_stream_slot_rows(ctx)) {
        return -1;
    }
    const lux_rgb_source src = {{planes[0], planes[1], planes[2]}, {strides[0], strides[1], strides[2]}};
    lux_ycc_convert(ctx, &src, 1, rows, (rows + ctx->group_rows - 1) / ctx->group_rows, slot);
    return 0;
}

// MARK: Y'CbCr pass-through

// A JPEG decoded to its raw Y'CbCr planes (libjpeg's raw_data_out: no upsampling, no colour conversion) straight into
// a colour stream's slots, for a re-encode that changes nothing but the compression.
struct lux_jpeg_ycc_source {
    lux_jpeg_decoder dec;  // first: libjpeg's callbacks cast the decompressor to it
    int downsample;        // 4:4:4 source, subsampled stream: Cb and Cr are downsampled here
    int height;
    int next;              // the next image row to decode
    uint8_t *full[2];      // downsampling: full-resolution Cb and Cr of an iMCU row of the stream (16 rows)
};

static void lux_jpeg_ycc_free(lux_jpeg_ycc_source *src) {
    jpeg_destroy_decompress(&src->dec.cinfo);
    free(src->full[0]);
    free(src);
}

int lux_jpeg_ycc_open(const uint8_t *data, size_t size, const lux_jpeg_stream *stream, size_t max_memory,
                      int max_scans, lux_jpeg_ycc_source **out, char *message, size_t capacity) {
    *out = NULL;
    if (!stream->raw || stream->failed || stream->carry_rows != 0 || stream->cinfo.next_scanline != 0) return 1;
    lux_jpeg_ycc_source *const src = (lux_jpeg_ycc_source *)calloc(1, sizeof(lux_jpeg_ycc_source));
    if (src == NULL) {
        lux_copy_message(message, capacity, "out of memory");
        return -1;
    }
    struct jpeg_decompress_struct *cinfo = &src->dec.cinfo;
    lux_jpeg_install(&src->dec.err, message, capacity, 1);
    cinfo->err = &src->dec.err.pub;
    if (setjmp(src->dec.err.jump)) {
        lux_jpeg_ycc_free(src);
        return -1;
    }
    jpeg_create_decompress(cinfo);
    if (max_memory > 0) cinfo->mem->max_memory_to_use = (long)(max_memory > LONG_MAX ? LONG_MAX : max_memory);
    src->dec.max_scans = max_scans;
    src->dec.progress.progress_monitor = lux_jpeg_progress;
    cinfo->progress = &src->dec.progress;
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
    // Y'CbCr with 1×1 chroma, one scan (a progressive file's coefficients would be held whole), the stream's size;
    // the stream's sampling, or 4:4:4 downsampled to it.
    const jpeg_component_info *c = cinfo->comp_info;
    const int h = c[0].h_samp_factor, v = c[0].v_samp_factor;
    const int same = h == stream->sub_h && v == stream->sub_v;
    const int applies = cinfo->jpeg_color_space == JCS_YCbCr && cinfo->num_components == 3 &&
                        !jpeg_has_multiple_scans(cinfo) && (int)cinfo->image_width == stream->width &&
                        (int)cinfo->image_height == (int)stream->cinfo.image_height && c[1].h_samp_factor == 1 &&
                        c[1].v_samp_factor == 1 && c[2].h_samp_factor == 1 && c[2].v_samp_factor == 1 &&
                        (same || (h == 1 && v == 1));
    if (!applies) {
        lux_jpeg_ycc_free(src);
        return 1;
    }
    cinfo->raw_data_out = TRUE;
    jpeg_start_decompress(cinfo);
    src->height = (int)cinfo->image_height;
    src->downsample = !same;
    if (src->downsample) {
        const size_t plane = (size_t)stream->luma_width * (size_t)stream->group_rows;
        src->full[0] = (uint8_t *)malloc(2 * plane);
        if (src->full[0] == NULL) {
            lux_copy_message(message, capacity, "out of memory");
            lux_jpeg_ycc_free(src);
            return -1;
        }
        src->full[1] = src->full[0] + plane;
    }
    *out = src;
    return 0;
}

// Decodes the stream's iMCU row `g` of `slot` (rows `first` … of the image): Y into the slot, Cb and Cr into the slot
// or, when downsampling, into full-resolution rows that are then downsampled into it. Called after the setjmp.
static void lux_jpeg_ycc_group(lux_jpeg_ycc_source *src, lux_jpeg_stream *stream, int slot, int g, int first) {
    struct jpeg_decompress_struct *cinfo = &src->dec.cinfo;
    const int G = stream->group_rows, lw = stream->luma_width, cw = stream->chroma_width;
    uint8_t *const Y = stream->planes[slot][0] + (size_t)g * (size_t)G * (size_t)lw;
    uint8_t *const Cb = stream->planes[slot][1] + (size_t)g * 8 * (size_t)cw;
    uint8_t *const Cr = stream->planes[slot][2] + (size_t)g * 8 * (size_t)cw;
    if (!src->downsample) {
        JSAMPROW y[16], cb[8], cr[8];
        for (int i = 0; i < G; i++) y[i] = Y + (size_t)i * (size_t)lw;
        for (int i = 0; i < 8; i++) {
            cb[i] = Cb + (size_t)i * (size_t)cw;
            cr[i] = Cr + (size_t)i * (size_t)cw;
        }
        JSAMPARRAY planes[3] = {y, cb, cr};
        jpeg_read_raw_data(cinfo, planes, (JDIMENSION)G);
        return;
    }
    // The source's iMCU rows are 8 rows: one or two per iMCU row of the stream (the last may have only one).
    for (int k = 0; k < stream->sub_v && cinfo->output_scanline < cinfo->output_height; k++) {
        JSAMPROW y[8], cb[8], cr[8];
        for (int i = 0; i < 8; i++) {
            y[i] = Y + (size_t)(8 * k + i) * (size_t)lw;
            cb[i] = src->full[0] + (size_t)(8 * k + i) * (size_t)lw;
            cr[i] = src->full[1] + (size_t)(8 * k + i) * (size_t)lw;
        }
        JSAMPARRAY planes[3] = {y, cb, cr};
        jpeg_read_raw_data(cinfo, planes, 8);
    }
    // The edges the normal path's converter makes: the last column repeated to the MCU's width, the last row below
    // the image; then jcsample.c's means.
    const int w = stream->width;
    for (int i = 0; i < G; i++) {
        const int row = first + i < src->height ? i : src->height - 1 - first;
        for (int p = 0; p < 2; p++) {
            uint8_t *const r = src->full[p] + (size_t)i * (size_t)lw;
            if (row != i) memcpy(r, src->full[p] + (size_t)row * (size_t)lw, (size_t)w);
            memset(r + w, r[w - 1], (size_t)(lw - w));
        }
    }
    for (int j = 0; j < 8; j++) {
        const size_t top = (size_t)(j * stream->sub_v) * (size_t)lw;
        const size_t bottom = top + (size_t)(stream->sub_v - 1) * (size_t)lw;
        lux_chroma_downsample(stream, src->full[0] + top, src->full[0] + bottom, Cb + (size_t)j * (size_t)cw);
        lux_chroma_downsample(stream, src->full[1] + top, src->full[1] + bottom, Cr + (size_t)j * (size_t)cw);
    }
}

int lux_jpeg_ycc_read(lux_jpeg_ycc_source *src, lux_jpeg_stream *stream, int slot, int first, int rows,
                      char *message, size_t capacity) {
    src->dec.err.message = message;
    src->dec.err.capacity = capacity;
    if (src->dec.err.fatal_warning) {
        lux_copy_message(message, capacity, "an earlier row of the image was damaged");
        return -1;
    }
    if (slot < 0 || slot >= LUX_JPEG_SLOTS || rows < 1 || rows > lux_jpeg_stream_slot_rows(stream) ||
        first != src->next || first + rows > src->height ||
        (first + rows < src->height && rows % stream->group_rows != 0)) {
        lux_copy_message(message, capacity, "the rows asked for are not whole iMCU rows of the image");
        return -1;
    }
    if (setjmp(src->dec.err.jump)) {
        src->dec.err.fatal_warning = 1;  // libjpeg's state is undefined after an error: no more rows
        return -1;
    }
    const int groups = (rows + stream->group_rows - 1) / stream->group_rows;
    for (int g = 0; g < groups; g++) {
        lux_jpeg_ycc_group(src, stream, slot, g, first + g * stream->group_rows);
        if (src->dec.err.fatal_warning) return -1;
    }
    if (first + rows == src->height) {
        jpeg_finish_decompress(&src->dec.cinfo);
        if (src->dec.err.fatal_warning) return -1;
    }
    stream->slot_groups[slot] = groups;
    src->next = first + rows;
    return 0;
}

void lux_jpeg_ycc_close(lux_jpeg_ycc_source *src) {
    if (src != NULL) lux_jpeg_ycc_free(src);
}

// The start of every stream call that may reach libjpeg: refuses a failed stream, routes libjpeg's message to the
// caller's buffer, and makes an error inside libjpeg release the stream and return -1 from the calling function
// (a macro because setjmp must run in that function's own frame).
#define LUX_JPEG_STREAM_ENTER(ctx, message, capacity)                               \
    do {                                                                            \
        if ((ctx)->failed) {                                                        \
            lux_copy_message((message), (capacity), "the encoder already failed"); \
            return -1;                                                              \
        }                                                                           \
        (ctx)->err.message = (message);                                             \
        (ctx)->err.capacity = (capacity);                                           \
        if (setjmp((ctx)->err.jump)) {                                              \
            lux_jpeg_stream_release(ctx);                                           \
            return -1;                                                              \
        }                                                                           \
    } while (0)

int lux_jpeg_stream_write_slot(lux_jpeg_stream *ctx, int slot, char *message, size_t capacity) {
    if (slot < 0 || slot >= LUX_JPEG_SLOTS) {
        lux_copy_message(message, capacity, "no such slot");
        return -1;
    }
    LUX_JPEG_STREAM_ENTER(ctx, message, capacity);
    lux_ycc_write(ctx, slot);
    return 0;
}

int lux_jpeg_stream_write(lux_jpeg_stream *ctx, const uint8_t *pixels, size_t stride, int rows, char *message,
                          size_t capacity) {
    LUX_JPEG_STREAM_ENTER(ctx, message, capacity);
    struct jpeg_compress_struct *cinfo = &ctx->cinfo;
    if (ctx->raw) {
        // Whole iMCU rows straight from the caller's rows, the rest through the carry buffer.
        const size_t row_bytes = (size_t)ctx->width * 4;
        int done = 0;
        while (done < rows) {
            if (ctx->carry_rows == 0 && rows - done >= ctx->group_rows) {
                const lux_rgb_source src = lux_rgba_source(pixels + (size_t)done * stride, stride);
                lux_ycc_convert(ctx, &src, 0, ctx->group_rows, 1, 0);
                done += ctx->group_rows;
            } else {
                memcpy(ctx->carry + (size_t)ctx->carry_rows * row_bytes, pixels + (size_t)done * stride, row_bytes);
                ctx->carry_rows++;
                done++;
                if (ctx->carry_rows < ctx->group_rows) continue;
                const lux_rgb_source src = lux_rgba_source(ctx->carry, row_bytes);
                lux_ycc_convert(ctx, &src, 0, ctx->group_rows, 1, 0);
                ctx->carry_rows = 0;
            }
            lux_ycc_write(ctx, 0);
        }
        return 0;
    }
    int done = 0;
    while (done < rows && cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW batch[16];
        int n = 0;
        while (n < 16 && done + n < rows) {
            batch[n] = (JSAMPROW)(pixels + (size_t)(done + n) * stride);
            n++;
        }
        done += (int)jpeg_write_scanlines(cinfo, batch, (JDIMENSION)n);
    }
    return 0;
}

int lux_jpeg_stream_finish(lux_jpeg_stream *ctx, uint8_t **out, size_t *out_size, char *message, size_t capacity) {
    *out = NULL;
    *out_size = 0;
    LUX_JPEG_STREAM_ENTER(ctx, message, capacity);
    if (ctx->raw && ctx->carry_rows > 0) {
        // The last, partial iMCU row: its missing rows repeat the image's last row.
        const lux_rgb_source src = lux_rgba_source(ctx->carry, (size_t)ctx->width * 4);
        lux_ycc_convert(ctx, &src, 0, ctx->carry_rows, 1, 0);
        ctx->carry_rows = 0;
        lux_ycc_write(ctx, 0);
    }
    jpeg_finish_compress(&ctx->cinfo);
    jpeg_destroy_compress(&ctx->cinfo);
    *out = ctx->buffer;
    *out_size = ctx->buffer_size;
    ctx->buffer = NULL;
    ctx->failed = 1;  // finished: nothing more may be written
    return 0;
}

void lux_jpeg_stream_destroy(lux_jpeg_stream *ctx) {
    if (ctx == NULL) return;
    if (!ctx->failed) lux_jpeg_stream_release(ctx);
    lux_jpeg_stream_free(ctx);
}

void lux_free(void *pointer) { free(pointer); }
