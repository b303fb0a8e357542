// libpng entry points with setjmp-based error handling kept inside C.
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

#include "CLuxCodecShims.h"

typedef struct {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t position;
    png_bytep *rows;
    uint8_t *out;
    size_t out_size;
    size_t out_capacity;
    int out_failed;
    char *message;
    size_t capacity;
} lux_png_context;

static void lux_png_copy_message(lux_png_context *ctx, const char *text) {
    if (ctx->message == NULL || ctx->capacity == 0) return;
    size_t n = strlen(text);
    if (n >= ctx->capacity) n = ctx->capacity - 1;
    memcpy(ctx->message, text, n);
    ctx->message[n] = 0;
}

static void lux_png_error(png_structp png, png_const_charp text) {
    lux_png_context *ctx = (lux_png_context *)png_get_error_ptr(png);
    lux_png_copy_message(ctx, text);
    png_longjmp(png, 1);
}

static void lux_png_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void lux_png_read_data(png_structp png, png_bytep out, size_t length) {
    lux_png_context *ctx = (lux_png_context *)png_get_io_ptr(png);
    if (length > ctx->size - ctx->position) png_error(png, "the PNG data ends early (truncated file)");
    memcpy(out, ctx->data + ctx->position, length);
    ctx->position += length;
}

/// A libpng reader of `data`, or NULL when libpng cannot start; the caller sets its setjmp before using it.
static lux_png_context *lux_png_reader_create(const uint8_t *data, size_t size, char *message, size_t capacity) {
    lux_png_context *const ctx = (lux_png_context *)calloc(1, sizeof(lux_png_context));
    if (ctx == NULL) return NULL;
    ctx->data = data;
    ctx->size = size;
    ctx->message = message;
    ctx->capacity = capacity;
    ctx->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, ctx, lux_png_error, lux_png_warning);
    if (ctx->png == NULL) {
        free(ctx);
        return NULL;
    }
    ctx->info = png_create_info_struct(ctx->png);
    if (ctx->info == NULL) {
        png_destroy_read_struct(&ctx->png, NULL, NULL);
        free(ctx);
        return NULL;
    }
    return ctx;
}

static void lux_png_reader_destroy(lux_png_context *ctx) {
    if (ctx == NULL) return;
    png_destroy_read_struct(&ctx->png, &ctx->info, NULL);
    free(ctx->rows);
    free(ctx);
}

/// Reads the header and sets libpng's transforms so rows come out with `channels` samples of `bit_depth` bits
/// (must run under the caller's setjmp). Returns the number of interlace passes.
static int lux_png_reader_start(lux_png_context *ctx, int channels, int bit_depth, int expected_width,
                                int expected_height, size_t stride) {
    png_set_read_fn(ctx->png, ctx, lux_png_read_data);
    png_set_user_limits(ctx->png, 0x7fffffff, 0x7fffffff);
    png_read_info(ctx->png, ctx->info);
    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(ctx->png, ctx->info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    if ((int)width != expected_width || (int)height != expected_height) {
        png_error(ctx->png, "the image size differs from the size found in the header");
    }
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(ctx->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(ctx->png);
    if (bit_depth == 16) {
        png_set_swap(ctx->png);  // PNG stores big-endian; our buffers use host (little-endian) order
    } else if (depth == 16) {
        png_set_strip_16(ctx->png);
    }
    if (channels == 4) {
        if (png_get_valid(ctx->png, ctx->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(ctx->png);
        if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(ctx->png);
        if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(ctx->png, ctx->info, PNG_INFO_tRNS)) {
            png_set_filler(ctx->png, bit_depth == 16 ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
        }
    } else if (color & PNG_COLOR_MASK_ALPHA) {
        png_set_strip_alpha(ctx->png);
    }
    int passes = png_set_interlace_handling(ctx->png);
    png_read_update_info(ctx->png, ctx->info);
    size_t rowbytes = png_get_rowbytes(ctx->png, ctx->info);
    if (rowbytes > stride || (size_t)png_get_channels(ctx->png, ctx->info) != (size_t)channels) {
        png_error(ctx->png, "internal: the decoded row layout does not match the buffer");
    }
    return passes;
}

int lux_png_decode(const uint8_t *data, size_t size, int channels, int bit_depth, uint8_t *pixels,
                   size_t stride, int expected_width, int expected_height, char *message, size_t capacity) {
    lux_png_context *const ctx = lux_png_reader_create(data, size, message, capacity);
    if (ctx == NULL) return -1;
    if (setjmp(png_jmpbuf(ctx->png))) {
        lux_png_reader_destroy(ctx);
        return -1;
    }
    lux_png_reader_start(ctx, channels, bit_depth, expected_width, expected_height, stride);
    png_uint_32 height = (png_uint_32)expected_height;
    ctx->rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
    if (ctx->rows == NULL) png_error(ctx->png, "out of memory");
    for (png_uint_32 y = 0; y < height; y++) ctx->rows[y] = pixels + (size_t)y * stride;
    png_read_image(ctx->png, ctx->rows);
    png_read_end(ctx->png, NULL);
    lux_png_reader_destroy(ctx);
    return 0;
}

struct lux_png_rows {
    lux_png_context *ctx;
};

lux_png_rows *lux_png_rows_open(const uint8_t *data, size_t size, int channels, int bit_depth, int expected_width,
                                int expected_height, char *message, size_t capacity) {
    lux_png_rows *const rows = (lux_png_rows *)calloc(1, sizeof(lux_png_rows));
    if (rows == NULL) return NULL;
    lux_png_context *const ctx = lux_png_reader_create(data, size, message, capacity);
    if (ctx == NULL) {
        free(rows);
        return NULL;
    }
    if (setjmp(png_jmpbuf(ctx->png))) {
        lux_png_reader_destroy(ctx);
        free(rows);
        return NULL;
    }
    size_t stride = (size_t)expected_width * (size_t)channels * (size_t)(bit_depth / 8);
    if (lux_png_reader_start(ctx, channels, bit_depth, expected_width, expected_height, stride) != 1) {
        png_error(ctx->png, "internal: an interlaced PNG cannot be read row by row");
    }
    rows->ctx = ctx;
    return rows;
}

int lux_png_rows_read(lux_png_rows *rows, uint8_t *pixels, size_t stride, int row_count, char *message,
                      size_t capacity) {
    lux_png_context *const ctx = rows->ctx;
    if (ctx == NULL) return -1;
    ctx->message = message;
    ctx->capacity = capacity;
    if (setjmp(png_jmpbuf(ctx->png))) {
        lux_png_reader_destroy(ctx);
        rows->ctx = NULL;
        return -1;
    }
    for (int y = 0; y < row_count; y++) png_read_row(ctx->png, pixels + (size_t)y * stride, NULL);
    return 0;
}

size_t lux_png_rows_remaining(const lux_png_rows *rows) {
    const lux_png_context *const ctx = rows->ctx;
    return ctx == NULL ? 0 : ctx->size - ctx->position;
}

void lux_png_rows_close(lux_png_rows *rows) {
    if (rows == NULL) return;
    lux_png_reader_destroy(rows->ctx);
    free(rows);
}

static void lux_png_write_data(png_structp png, png_bytep data, size_t length) {
    lux_png_context *ctx = (lux_png_context *)png_get_io_ptr(png);
    if (ctx->out_size + length > ctx->out_capacity) {
        size_t capacity = ctx->out_capacity ? ctx->out_capacity : 65536;
        while (capacity < ctx->out_size + length) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(ctx->out, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        ctx->out = grown;
        ctx->out_capacity = capacity;
    }
    memcpy(ctx->out + ctx->out_size, data, length);
    ctx->out_size += length;
}

static void lux_png_flush(png_structp png) { (void)png; }

struct lux_png_stream {
    lux_png_context ctx;
    int failed;
};

static void lux_png_stream_release(lux_png_stream *st) {
    png_destroy_write_struct(&st->ctx.png, &st->ctx.info);
    free(st->ctx.out);
    st->ctx.out = NULL;
    st->failed = 1;
}

lux_png_stream *lux_png_stream_create(const lux_png_encode_params *params, const lux_png_chunk *chunks, int chunk_count,
                                      char *message, size_t capacity) {
    lux_png_stream *const st = (lux_png_stream *)calloc(1, sizeof(lux_png_stream));
    if (st == NULL) return NULL;
    lux_png_context *ctx = &st->ctx;
    ctx->message = message;
    ctx->capacity = capacity;
    ctx->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, ctx, lux_png_error, lux_png_warning);
    if (ctx->png == NULL) {
        free(st);
        return NULL;
    }
    ctx->info = png_create_info_struct(ctx->png);
    if (ctx->info == NULL || setjmp(png_jmpbuf(ctx->png))) {
        lux_png_stream_release(st);
        free(st);
        return NULL;
    }
    png_set_write_fn(ctx->png, ctx, lux_png_write_data, lux_png_flush);
    png_set_IHDR(ctx->png, ctx->info, (png_uint_32)params->width, (png_uint_32)params->height, params->bit_depth,
                 params->color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(ctx->png, ctx->info);
    for (int i = 0; i < chunk_count; i++) {
        png_write_chunk(ctx->png, (png_const_bytep)chunks[i].type, chunks[i].data, chunks[i].length);
    }
    return st;
}

int lux_png_stream_write_chunk(lux_png_stream *st, const char *type, const uint8_t *data, size_t size,
                               char *message, size_t capacity) {
    if (st->failed) return -1;
    st->ctx.message = message;
    st->ctx.capacity = capacity;
    if (setjmp(png_jmpbuf(st->ctx.png))) {
        lux_png_stream_release(st);
        return -1;
    }
    png_write_chunk(st->ctx.png, (png_const_bytep)type, data, size);
    return 0;
}

size_t lux_png_stream_take(lux_png_stream *st, const uint8_t **bytes) {
    *bytes = st->ctx.out;
    const size_t size = st->failed ? 0 : st->ctx.out_size;
    st->ctx.out_size = 0;
    return size;
}

int lux_png_stream_finish(lux_png_stream *st, uint8_t **out, size_t *out_size, char *message, size_t capacity) {
    *out = NULL;
    *out_size = 0;
    if (st->failed) return -1;
    st->ctx.message = message;
    st->ctx.capacity = capacity;
    if (setjmp(png_jmpbuf(st->ctx.png))) {
        lux_png_stream_release(st);
        return -1;
    }
    // The image data went out as IDAT chunks Lux compressed itself, which libpng's png_write_end does not count.
    png_write_chunk(st->ctx.png, (png_const_bytep)"IEND", NULL, 0);
    png_destroy_write_struct(&st->ctx.png, &st->ctx.info);
    *out = st->ctx.out;
    *out_size = st->ctx.out_size;
    st->ctx.out = NULL;
    st->failed = 1;
    return 0;
}

void lux_png_stream_destroy(lux_png_stream *st) {
    if (st == NULL) return;
    if (!st->failed) lux_png_stream_release(st);
    free(st->ctx.out);
    free(st);
}
