#ifndef CLUX_CODEC_SHIMS_H
#define CLUX_CODEC_SHIMS_H

// C entry points LuxCodecs calls for libjpeg-turbo, libpng, zlib and x265.
//
// libjpeg and libpng report errors by longjmp. Every function here that calls into them does its own
// setjmp, so a longjmp never crosses a Swift frame: on error the function cleans up and returns a
// negative value with a NUL-terminated message in `message` (at most `capacity` bytes).
// No libjpeg/libpng/x265 type appears in this header.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: JPEG (libjpeg-turbo)

/// Output layouts for lux_jpeg_decode.
enum { LUX_JPEG_OUT_GRAY = 0, LUX_JPEG_OUT_RGBA = 1, LUX_JPEG_OUT_CMYK = 2 };

/// Decodes a JPEG held in memory into rows of `width` pixels: 1 byte per pixel for LUX_JPEG_OUT_GRAY,
/// 4 bytes (R, G, B, 255) for LUX_JPEG_OUT_RGBA, 4 bytes (C, M, Y, K as stored, YCCK converted) for
/// LUX_JPEG_OUT_CMYK, which only a CMYK or YCCK file can be decoded to. The caller has checked the dimensions from the header
/// and allocated `height` rows of `stride` bytes; the decoder refuses a frame of another size.
/// Returns 0, or -1 with a message (corrupt data, unsupported colour space such as CMYK, wrong size).
/// Warnings (for example a truncated entropy-coded segment) count as errors when `strict` is non-zero.
/// libjpeg's own buffers (the whole-image coefficient arrays of a progressive file) may take at most
/// `max_memory` bytes (0: no limit), and a progressive file may have at most `max_scans` scans (0: no
/// limit) — a few bytes per scan can otherwise make a small file take minutes to decode.
int lux_jpeg_decode(const uint8_t *data, size_t size, int out_layout, uint8_t *pixels, size_t stride,
                    int expected_width, int expected_height, int strict, size_t max_memory, int max_scans,
                    char *message, size_t capacity);

/// Like lux_jpeg_decode, reducing the image by 1/scale_denom (1, 2, 4 or 8) in libjpeg's DCT domain (much cheaper
/// than decoding in full and resampling). The header must say image_width × image_height; the caller allocated
/// ceil(image_width / scale_denom) × ceil(image_height / scale_denom) pixels.
int lux_jpeg_decode_scaled(const uint8_t *data, size_t size, int out_layout, uint8_t *pixels, size_t stride,
                           int image_width, int image_height, int scale_denom, int strict, size_t max_memory,
                           int max_scans, char *message, size_t capacity);

/// Decodes output rows first_row ..< first_row + row_count of a baseline (single-scan) JPEG of image_width ×
/// image_height pixels into `pixels` (whose first row receives row first_row), as lux_jpeg_decode does with
/// `strict` set; a progressive file fails at its second scan (a scan limit of one). The rows above first_row are decoded and dropped (the context that chroma
/// upsampling reads), and decoding stops after the last row asked for.
int lux_jpeg_decode_rows(const uint8_t *data, size_t size, int out_layout, uint8_t *pixels, size_t stride,
                         int image_width, int image_height, int first_row, int row_count, size_t max_memory,
                         char *message, size_t capacity);

/// A decoder handing out a JPEG's rows top to bottom, a band at a time (libjpeg's decompressor kept between calls;
/// each call sets its own setjmp). The data must stay valid until lux_jpeg_rows_close.
typedef struct lux_jpeg_rows lux_jpeg_rows;

/// Reads the header of `data` and starts decoding (as lux_jpeg_decode with `strict` set). Returns NULL with a message
/// (corrupt header, unsupported colour space, size other than expected_width × expected_height).
lux_jpeg_rows *lux_jpeg_rows_open(const uint8_t *data, size_t size, int out_layout, int expected_width,
                                  int expected_height, size_t max_memory, int max_scans, char *message,
                                  size_t capacity);

/// Decodes the next `row_count` rows into `pixels` (rows of `stride` bytes). Returns 0, or -1 with a message (damaged
/// or truncated data, more rows than remain); after an error every later call fails.
int lux_jpeg_rows_read(lux_jpeg_rows *rows, uint8_t *pixels, size_t stride, int row_count, char *message,
                       size_t capacity);

/// Frees the decoder (whether or not every row was read).
/// The bytes of the data the decoder has not read yet (those before them are no longer needed).
size_t lux_jpeg_rows_remaining(const lux_jpeg_rows *rows);
void lux_jpeg_rows_close(lux_jpeg_rows *rows);

/// Splits the entropy-coded data of a single-scan JPEG, starting at `start` (just after SOS), at its restart
/// markers: interval i is data[starts[i] ..< ends[i]], ends[i] being where the marker after it (RSTn or EOI,
/// with any fill bytes) starts. Returns the number of intervals, or -1 when the markers are not RST0, RST1 … RST7,
/// RST0 … in order ending with EOI (another marker, a missing or repeated RST, no EOI) or there are more than
/// `capacity` intervals.
long lux_jpeg_restart_intervals(const uint8_t *data, size_t size, size_t start, size_t *starts, size_t *ends,
                                long capacity);

/// One marker segment to write after SOI (APP1 Exif, APP1 XMP, APP2 ICC …).
typedef struct {
    int marker;             // 0xE0 … 0xEF, 0xFE
    const uint8_t *data;    // payload without the marker and length bytes
    size_t length;          // at most 65533
} lux_jpeg_marker;

/// Encoder settings.
typedef struct {
    int width, height;
    int input_components;   // 1 (gray) or 4 (RGBA, alpha ignored)
    int quality;            // 1 … 100
    int chroma_h, chroma_v; // luma sampling factors relative to chroma: 1,1 = 4:4:4; 2,1 = 4:2:2; 2,2 = 4:2:0
    int optimize_coding;    // optimal Huffman tables
    int progressive;
    int write_jfif;         // APP0 JFIF header
    int dct_float;          // 0 = JDCT_ISLOW (default), 1 = JDCT_FLOAT
} lux_jpeg_encode_params;

/// An encoder fed band by band (libjpeg's compressor kept between calls; each call sets its own setjmp).
typedef struct lux_jpeg_stream lux_jpeg_stream;

/// Starts an encoder and writes the markers. Returns NULL with a message on failure.
lux_jpeg_stream *lux_jpeg_stream_create(const lux_jpeg_encode_params *params, const lux_jpeg_marker *markers,
                                        int marker_count, char *message, size_t capacity);

/// Compresses the next `rows` rows. Returns 0, or -1 with a message (the encoder is then unusable).
int lux_jpeg_stream_write(lux_jpeg_stream *stream, const uint8_t *pixels, size_t stride, int rows, char *message,
                          size_t capacity);

/// Colour streams hand libjpeg Y'CbCr rows that this shim converts and downsamples with libjpeg's own arithmetic
/// (the output is the same JPEG), an iMCU row (8 or 16 rows) at a time. lux_jpeg_stream_write converts in the
/// calling thread; a caller can instead convert whole iMCU rows into one of two slots with lux_jpeg_stream_convert
/// on one thread while lux_jpeg_stream_write_slot compresses the other slot on another.
///
/// The rows of an iMCU row; 0 for a gray stream (no conversion).
int lux_jpeg_stream_group_rows(const lux_jpeg_stream *stream);

/// Rows lux_jpeg_stream_write holds back until they make a whole iMCU row (no slot may be converted meanwhile).
int lux_jpeg_stream_pending_rows(const lux_jpeg_stream *stream);

/// The most rows a slot holds (a multiple of the iMCU row).
int lux_jpeg_stream_slot_rows(const lux_jpeg_stream *stream);

/// Converts `rows` rows (whole iMCU rows, at most lux_jpeg_stream_slot_rows) into slot 0 or 1. Calls nothing in
/// libjpeg. Returns 0, or -1 for arguments it refuses (a gray stream, rows pending, a bad row count). It does not
/// look at whether compressing failed (that flag belongs to the compressing thread); the writer reports failures.
int lux_jpeg_stream_convert(lux_jpeg_stream *stream, int slot, const uint8_t *pixels, size_t stride, int rows);

/// Like lux_jpeg_stream_convert, from three 8-bit planes (R, G, B, each with its row stride in bytes) instead of RGBA
/// rows. `rows` may end with a partial iMCU row only when it ends the image (its missing rows repeat the last one).
int lux_jpeg_stream_convert_planes(lux_jpeg_stream *stream, int slot, const uint8_t *const planes[3],
                                   const size_t strides[3], int rows);

/// A JPEG read as its raw Y'CbCr planes (no upsampling, no colour conversion) into a colour stream's slots, for a
/// re-encode that changes only the compression. The data must stay valid until lux_jpeg_ycc_close.
typedef struct lux_jpeg_ycc_source lux_jpeg_ycc_source;

/// Opens `data` for `stream` (a colour stream with no rows written) when the pass-through applies: a single-scan
/// Y'CbCr JPEG of the stream's size whose chroma is 1×1 and whose luma sampling is the stream's, or 4:4:4 (its
/// chroma is then downsampled as the stream's converter downsamples). Returns 0 with *out set, 1 when it does not
/// apply (nothing opened, no message), or -1 with a message (an unreadable header, out of memory, limits).
int lux_jpeg_ycc_open(const uint8_t *data, size_t size, const lux_jpeg_stream *stream, size_t max_memory,
                      int max_scans, lux_jpeg_ycc_source **out, char *message, size_t capacity);

/// Decodes image rows first ..< first + rows (whole iMCU rows of the stream, the last ones possibly partial at the
/// image's end) into slot 0 or 1 of `stream`, like lux_jpeg_stream_convert_planes; call it for the rows in order.
/// Returns 0, or -1 with a message (damaged or truncated data, rows out of order); after an error every later call
/// fails.
int lux_jpeg_ycc_read(lux_jpeg_ycc_source *source, lux_jpeg_stream *stream, int slot, int first, int rows,
                      char *message, size_t capacity);

/// Frees the decoder (whether or not every row was read).
void lux_jpeg_ycc_close(lux_jpeg_ycc_source *source);

/// Compresses the rows converted into `slot`. Returns 0, or -1 with a message (the encoder is then unusable).
int lux_jpeg_stream_write_slot(lux_jpeg_stream *stream, int slot, char *message, size_t capacity);

/// Completes the file; on success *out holds it (free with lux_free).
int lux_jpeg_stream_finish(lux_jpeg_stream *stream, uint8_t **out, size_t *out_size, char *message, size_t capacity);

/// Releases an encoder (finished or not).
void lux_jpeg_stream_destroy(lux_jpeg_stream *stream);

// MARK: PNG (libpng)

/// Decodes a PNG held in memory. libpng expands palettes and low-bit gray, keeps 16-bit samples
/// (converted to host byte order) and adds an opaque alpha when `add_alpha` is non-zero.
/// `channels` is 1 (gray) or 4 (RGBA); `bit_depth` 8 or 16 — as chosen by the caller from the header.
/// Returns 0, or -1 with a message.
int lux_png_decode(const uint8_t *data, size_t size, int channels, int bit_depth, uint8_t *pixels,
                   size_t stride, int expected_width, int expected_height, char *message, size_t capacity);

/// A PNG decoded a few rows at a time (non-interlaced files only); the data must stay valid until
/// lux_png_rows_close. Rows come out as lux_png_decode gives them.
typedef struct lux_png_rows lux_png_rows;

/// Reads the header; NULL with a message for damaged, interlaced or unexpected files.
lux_png_rows *lux_png_rows_open(const uint8_t *data, size_t size, int channels, int bit_depth, int expected_width,
                                int expected_height, char *message, size_t capacity);
/// Decodes the next `row_count` rows. Returns 0, or -1 with a message (the reader is then unusable).
int lux_png_rows_read(lux_png_rows *rows, uint8_t *pixels, size_t stride, int row_count, char *message,
                      size_t capacity);
/// The bytes of the data the decoder has not read yet (those before them are no longer needed).
size_t lux_png_rows_remaining(const lux_png_rows *rows);
void lux_png_rows_close(lux_png_rows *rows);

/// The PNG header: size, colour type (0 gray, 2 RGB, 6 RGBA) and bit depth (8 or 16).
typedef struct {
    int width, height;
    int color_type;
    int bit_depth;
} lux_png_encode_params;

/// An ancillary chunk, passed ready-made (already compressed where PNG requires it).
typedef struct {
    char type[5];           // four ASCII letters + NUL
    const uint8_t *data;
    size_t length;
} lux_png_chunk;

/// A PNG written through libpng: the header and `chunks` (in the order given) at creation, then IDAT chunks whose
/// data the caller compressed (libpng's own compressor runs on one thread), then IEND at finish.
typedef struct lux_png_stream lux_png_stream;

lux_png_stream *lux_png_stream_create(const lux_png_encode_params *params, const lux_png_chunk *chunks, int chunk_count,
                                      char *message, size_t capacity);
/// Writes a chunk of `size` bytes (`type` is four ASCII letters). Returns 0, or -1 with a message.
int lux_png_stream_write_chunk(lux_png_stream *stream, const char *type, const uint8_t *data, size_t size,
                               char *message, size_t capacity);
/// The bytes written since the stream began or since the last call (none after finish), which the caller takes: `*bytes`
/// stays valid until the next call on the stream. A caller that writes them out keeps only a chunk in memory.
size_t lux_png_stream_take(lux_png_stream *stream, const uint8_t **bytes);
/// Writes IEND and hands over the bytes not yet taken (a malloc'd buffer: free with lux_free). Returns 0, or -1 with a
/// message.
int lux_png_stream_finish(lux_png_stream *stream, uint8_t **out, size_t *out_size, char *message, size_t capacity);
void lux_png_stream_destroy(lux_png_stream *stream);

/// Converts `count` rows (`stride` bytes apart; 8-bit samples, or 16-bit in host order) of `input_channels`
/// samples per pixel to PNG's layout of `file_channels` (RGBA input for an RGB file drops alpha; 16-bit samples
/// become big-endian) and filters each row with the PNG filter (none, sub, up, average, Paeth) whose output has the
/// smallest sum of absolute signed bytes, as libpng chooses by default. `previous` is the row above the first in
/// the same input layout, NULL for the image's first row. Writes `count × (1 + width × file_channels × bytes per
/// sample)` bytes to `out`; returns 0, or -1 when out of memory.
int lux_png_filter_rows(const uint8_t *rows, size_t stride, int count, const uint8_t *previous, int width,
                        int input_channels, int file_channels, int bit_depth, uint8_t *out);

// MARK: zlib

/// Inflates a zlib stream (raw = 0) or a raw deflate stream (raw = 1) into `dst`. Stops when `dst` is
/// full or the stream ends. Returns the number of bytes written, or -1 with a message on corrupt data.
/// `*complete` is set to 1 when the stream reached its end.
long lux_inflate(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_capacity, int raw,
                 int *complete, char *message, size_t capacity);

/// Deflates `src` into a zlib stream. Returns 0 and a malloc'd buffer (free with lux_free), or -1.
int lux_deflate(const uint8_t *src, size_t src_size, int level, uint8_t **out, size_t *out_size,
                char *message, size_t capacity);

/// Deflates `size` bytes as one segment of a longer raw deflate stream, so segments can be compressed on several
/// threads and concatenated: `dictionary` (up to 32 KiB of the stream's bytes just before the segment) primes
/// the window; the segment ends byte-aligned with a sync flush, or with the final block when `last` is set.
/// `strategy` is zlib's (0 default, 1 filtered). Returns 0 and a malloc'd buffer (free with lux_free), or -1.
int lux_deflate_segment(const uint8_t *src, size_t size, const uint8_t *dictionary, size_t dictionary_size,
                        int level, int strategy, int last, uint8_t **out, size_t *out_size, char *message,
                        size_t capacity);

/// zlib's Adler-32 of `size` bytes, continuing from `adler` (1 to start).
uint32_t lux_adler32(uint32_t adler, const uint8_t *data, size_t size);

/// The Adler-32 of two byte runs joined, from each run's checksum and the second run's length.
uint32_t lux_adler32_combine(uint32_t first, uint32_t second, size_t second_size);

// MARK: HEVC (x265)

/// Chroma formats for lux_hevc_encode_picture.
enum { LUX_HEVC_CHROMA_400 = 0, LUX_HEVC_CHROMA_420 = 1 };

/// What lux_hevc_encode_picture encodes: one intra picture of `width` × `height` samples (multiples of 8), 8 or 10
/// bits, 4:2:0 or 4:0:0, at x265's constant rate factor `crf` (0…51) with `preset` (x265's names: "slow" …). The
/// colour description is written to the stream's VUI: `full_range`, H.273 `primaries`, `transfer` and `matrix`.
typedef struct {
    int width;
    int height;
    int bit_depth;
    int chroma;
    double crf;
    const char *preset;
    int full_range;
    int primaries;
    int transfer;
    int matrix;
} lux_hevc_encode_params;

/// Encodes one picture with x265 on the calling thread (no x265 thread pool), deterministically. `planes` are Y, Cb,
/// Cr (Y only for 4:0:0) with `strides` in bytes; samples are bytes at 8 bits and host-order 16-bit words above.
/// On success returns 0 with two malloc'd buffers (free with lux_free): `*headers` holds the VPS, SPS and PPS and
/// `*data` the picture's other NAL units, each NAL unit preceded by its length as 4 big-endian bytes. Returns -1 with
/// a message otherwise.
int lux_hevc_encode_picture(const lux_hevc_encode_params *params, const void *const planes[3],
                            const size_t strides[3], uint8_t **headers, size_t *headers_size, uint8_t **data,
                            size_t *data_size, char *message, size_t capacity);

/// Opens (and closes) a first x265 encoder of `bit_depth` with `preset` unless Lux has opened one already, so that
/// x265's process-wide tables are filled before another library (FFmpeg's libx265) opens encoders on other threads
/// while Lux encodes. Returns 0, or -1 when x265 cannot open such an encoder (the real open then reports why).
int lux_x265_prepare(int bit_depth, const char *preset);

/// Frees a buffer returned by this module.
void lux_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
