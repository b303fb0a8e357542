#ifndef CLUX_LIBRAW_H
#define CLUX_LIBRAW_H

// The part of LibRaw that LuxCodecs uses: identify a camera raw held in memory, unpack its sensor data, copy the
// data out, and read the embedded thumbnail. Nothing is demosaiced or colour-processed here.
//
// Each lux_libraw handle owns one LibRaw instance (the thread-safe libraw_r build), so decodes of different files
// run in parallel. LibRaw's messages about damaged data and failed allocations are recorded in the handle instead of
// being printed. No LibRaw type appears in this header.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How the unpacked sensor data is stored.
enum {
    /// One 16-bit sample per photosite behind a colour filter array (Bayer, X-Trans and other CFAs).
    LUX_LIBRAW_MOSAIC = 1,
    /// Three or four 16-bit colour samples per pixel (sRAW, Foveon, linear DNG, cameras without a CFA).
    LUX_LIBRAW_COLOR = 2,
    /// One 32-bit float sample per photosite (floating-point CFA DNG).
    LUX_LIBRAW_FLOAT_MOSAIC = 3,
    /// Three or four 32-bit float samples per pixel.
    LUX_LIBRAW_FLOAT_COLOR = 4,
};

/// The largest colour-filter-array period described in `cfa` (LibRaw's own patterns repeat every 16 or fewer).
#define LUX_LIBRAW_CFA_MAX 16
/// What LibRaw identified, with every value in LibRaw's visible-area coordinates unless said otherwise.
typedef struct {
    // Camera.
    char make[64];
    char model[64];
    char normalized_make[64];
    char normalized_model[64];
    char software[64];
    char body_serial[64];
    unsigned dng_version;  // 0 for non-DNG files

    // Geometry. The stored frame is raw_width × raw_height; the visible area starts at (left_margin, top_margin).
    int raw_width, raw_height;
    int width, height, top_margin, left_margin;
    int fuji_width;        // non-zero for Fujifilm SuperCCD (a 45°-rotated layout)
    int flip;              // LibRaw's flip code (0, 3, 5, 6, or any bit combination of 1, 2, 4)
    double pixel_aspect;
    int masks[8][4];       // masked (optical black) areas: top, left, bottom, right in stored coordinates

    // Colour filter array: colour index of visible pixel (row, column) modulo the period.
    int colors;            // 3 (RGB) or 4
    unsigned filters;      // LibRaw's code: 0 no CFA, 9 X-Trans, 1/2 other small CFAs, > 999 a 2×8 code
    int is_foveon;
    int cfa_rows, cfa_cols;  // the smallest period of `cfa` (0 × 0 without a CFA)
    uint8_t cfa[LUX_LIBRAW_CFA_MAX][LUX_LIBRAW_CFA_MAX];
    char cdesc[5];         // the colour letters of indices 0...3 ("RGBG")

    // Levels (after unpacking: the black level can come from the masked areas).
    unsigned black;
    unsigned cblack[4];    // per colour index
    unsigned black_rows, black_cols;  // the repeating pattern (lux_libraw_black_pattern), 0 × 0 without one
    unsigned maximum;
    unsigned raw_bps;

    // Colour.
    float cam_mul[4];      // as-shot white-balance multipliers (0 when unknown)
    float pre_mul[4];      // daylight multipliers
    float cam_xyz[4][3];   // XYZ (D65) → camera, rows per colour index (all zero when unknown)
    float rgb_cam[3][4];   // camera → linear sRGB
    float baseline_exposure;  // DNG BaselineExposure, LibRaw's "unset" value otherwise

    // Exposure and lens.
    float iso_speed, shutter, aperture, focal_length;
    int focal_length_35mm;
    char date_time[20];    // "YYYY:MM:DD HH:MM:SS" (local time, as Exif stores it), empty when unknown
    char artist[64];
    char description[512];
    char lens_make[128];
    char lens[128];
    float lens_min_focal, lens_max_focal, lens_max_aperture_min_focal, lens_max_aperture_max_focal;
    int has_gps;
    double latitude, longitude, altitude;  // degrees (negative south and west), metres

    // Thumbnail.
    int thumb_format;      // LibRaw's LIBRAW_THUMBNAIL_* (1 JPEG, 2 8-bit RGB bitmap, 0 none or unknown)
    int thumb_width, thumb_height;
    unsigned thumb_length;

    // The decoder LibRaw chose (such as "nikon_load_raw()"), and where its data starts and how long it is (0 when
    // LibRaw does not know).
    char decoder[64];
    long long data_offset;
    long long data_size;
} lux_libraw_info;

typedef struct lux_libraw lux_libraw;

/// LibRaw's version, such as "0.20.2-Release".
const char *lux_libraw_version(void);

/// lux_libraw_probe's outcomes besides a LibRaw status: LibRaw crashed on the data, did not finish in time, or the
/// probe could not run (no process could be made; the caller then goes on without it).
enum { LUX_LIBRAW_PROBE_CRASHED = -200001, LUX_LIBRAW_PROBE_TIMED_OUT = -200002, LUX_LIBRAW_PROBE_UNAVAILABLE = -200003 };

/// Identifies `size` bytes at `data` in a forked child process that exits at once, so that a defect of LibRaw's
/// header parsing (an abort or a fault inside the library) ends the child, not the caller. Returns 0 when LibRaw
/// identified the data in the child, its error code when it refused them, or one of the LUX_LIBRAW_PROBE values.
/// `timeout_ms` bounds the child's run (it is killed after it).
int lux_libraw_probe(const void *data, size_t size, unsigned max_memory_mb, int timeout_ms);

/// Creates a LibRaw instance, identifies `size` bytes at `data` (which must stay valid until lux_libraw_close) and
/// fills `info`. `max_memory_mb` caps LibRaw's raw buffer (0: LibRaw's default). Returns NULL with *error set to a
/// LibRaw error code (or to -100007 when the instance cannot be allocated); the handle otherwise.
lux_libraw *lux_libraw_open(const void *data, size_t size, unsigned max_memory_mb, lux_libraw_info *info,
                            int *error);

/// Copies the black-level pattern (black_rows × black_cols values, row by row, added to black and cblack) into `dst`
/// and returns its length, or 0 when there is none or it does not fit in `capacity`.
size_t lux_libraw_black_pattern(const lux_libraw *raw, unsigned *dst, size_t capacity);

/// Unpacks the sensor data and refreshes `info`'s levels (LibRaw reads black from the masked areas while
/// unpacking). Returns 0 or a LibRaw error code. *data_error is the byte offset of the first damaged or missing
/// data LibRaw met (−1 for the end of the file), or −2 when it met none: LibRaw fills what it cannot read with
/// zeros and still reports success.
int lux_libraw_unpack(lux_libraw *raw, lux_libraw_info *info, long long *data_error);

/// The layout of the unpacked data (LUX_LIBRAW_MOSAIC …, 0 before unpacking) and its samples per pixel.
int lux_libraw_data_layout(const lux_libraw *raw, int *samples_per_pixel);

/// Copies the unpacked data, raw_height rows of raw_width pixels, into rows `dst_row_bytes` apart: uint16 or float
/// samples per the layout. Colour layouts are written as four samples per pixel, LibRaw's first three colours and a
/// fourth at full scale (65535 or 1). Returns 0, or -1 when nothing was unpacked.
int lux_libraw_copy_data(const lux_libraw *raw, void *dst, size_t dst_row_bytes);

/// The unpacked one-sample mosaic in LibRaw's own buffer (uint16 or float samples, raw_height rows *row_bytes apart),
/// valid until lux_libraw_close; NULL for colour data or before unpacking.
const void *lux_libraw_mosaic(const lux_libraw *raw, size_t *row_bytes);

/// Loads the embedded thumbnail LibRaw picks (the largest preview it knows). Returns 0 or a LibRaw error code.
int lux_libraw_unpack_thumbnail(lux_libraw *raw);

/// The loaded thumbnail's bytes (a JPEG file, or width × height × 3 bytes of RGB), NULL before loading.
const uint8_t *lux_libraw_thumbnail(const lux_libraw *raw, size_t *length);

/// The number of camera models LibRaw knows.
int lux_libraw_camera_count(void);

/// LibRaw's message for an error code.
const char *lux_libraw_strerror(int error);

/// Destroys the instance and everything it allocated.
void lux_libraw_close(lux_libraw *raw);

#ifdef __cplusplus
}
#endif

#endif
