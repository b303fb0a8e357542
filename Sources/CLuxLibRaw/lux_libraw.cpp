// LibRaw behind a small C interface (see CLuxLibRaw.h). C++ only for the three facts LibRaw's C interface does
// not expose: the SuperCCD layout (is_fuji_rotated), the count of data errors, and the decoder's name.

#include "CLuxLibRaw.h"

#include <libraw.h>

#include <math.h>
#include <string.h>
#include <time.h>

#include <new>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

struct lux_libraw {
    LibRaw processor;
    long long first_data_error;  // -2: none, -1: end of file, otherwise the offset
    lux_libraw() : processor(LIBRAW_OPIONS_NO_DATAERR_CALLBACK | LIBRAW_OPIONS_NO_MEMERR_CALLBACK), first_data_error(-2) {}
};

static void record_data_error(void *context, const char *, const int offset) {
    lux_libraw *raw = static_cast<lux_libraw *>(context);
    if (raw->first_data_error == -2) raw->first_data_error = offset < 0 ? -1 : offset;
}

static void ignore_memory_error(void *, const char *, const char *) {}

static void ignore_data_error(void *, const char *, const int) {}

static void copy_text(char *dst, size_t capacity, const char *src) {
    size_t n = strnlen(src, capacity - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

/// Degrees from LibRaw's degrees, minutes, seconds.
static double degrees(const float dms[3]) { return dms[0] + dms[1] / 60.0 + dms[2] / 3600.0; }

/// The smallest period (1, 2, 4, 8 or 16) of the colour table down its rows (`rows`) or along them.
static int cfa_period(const lux_libraw_info *info, int rows) {
    const int n = LUX_LIBRAW_CFA_MAX;
    for (int p = 1; p < n; p *= 2) {
        int ok = 1;
        for (int r = 0; r < n && ok; r++)
            for (int c = 0; c < n && ok; c++)
                ok = info->cfa[r][c] == (rows ? info->cfa[(r + p) % n][c] : info->cfa[r][(c + p) % n]);
        if (ok) return p;
    }
    return n;
}

static void fill_levels(LibRaw &p, lux_libraw_info *info) {
    const libraw_colordata_t &c = p.imgdata.color;
    info->black = c.black;
    for (int i = 0; i < 4; i++) info->cblack[i] = c.cblack[i];
    unsigned rows = c.cblack[4], cols = c.cblack[5];
    int fits = rows > 0 && cols > 0 && rows <= 64 && cols <= 64 && 6 + rows * cols <= LIBRAW_CBLACK_SIZE;
    info->black_rows = fits ? rows : 0;
    info->black_cols = fits ? cols : 0;
    info->maximum = c.maximum;
    info->raw_bps = c.raw_bps;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++) info->masks[i][j] = p.imgdata.sizes.mask[i][j];
}

static void fill_info(lux_libraw *raw, lux_libraw_info *info) {
    LibRaw &p = raw->processor;
    const libraw_data_t &d = p.imgdata;
    memset(info, 0, sizeof *info);
    copy_text(info->make, sizeof info->make, d.idata.make);
    copy_text(info->model, sizeof info->model, d.idata.model);
    copy_text(info->normalized_make, sizeof info->normalized_make, d.idata.normalized_make);
    copy_text(info->normalized_model, sizeof info->normalized_model, d.idata.normalized_model);
    copy_text(info->software, sizeof info->software, d.idata.software);
    copy_text(info->body_serial, sizeof info->body_serial, d.shootinginfo.BodySerial);
    info->dng_version = d.idata.dng_version;

    info->raw_width = d.sizes.raw_width;
    info->raw_height = d.sizes.raw_height;
    info->width = d.sizes.width;
    info->height = d.sizes.height;
    info->top_margin = d.sizes.top_margin;
    info->left_margin = d.sizes.left_margin;
    info->fuji_width = p.is_fuji_rotated();
    info->flip = d.sizes.flip;
    info->pixel_aspect = d.sizes.pixel_aspect;

    info->colors = d.idata.colors;
    info->filters = d.idata.filters;
    info->is_foveon = d.idata.is_foveon;
    memcpy(info->cdesc, d.idata.cdesc, sizeof info->cdesc);
    info->cdesc[4] = 0;
    if (d.idata.filters != 0) {
        for (int r = 0; r < LUX_LIBRAW_CFA_MAX; r++)
            for (int c = 0; c < LUX_LIBRAW_CFA_MAX; c++) {
                int color = d.idata.filters == 9 ? d.idata.xtrans[r % 6][c % 6] : p.COLOR(r, c);
                info->cfa[r][c] = (uint8_t)(color < 0 || color > 3 ? 0 : color);
            }
        if (d.idata.filters == 9) {
            info->cfa_rows = info->cfa_cols = 6;
        } else {
            info->cfa_rows = cfa_period(info, 1);
            info->cfa_cols = cfa_period(info, 0);
        }
    }
    fill_levels(p, info);

    for (int i = 0; i < 4; i++) {
        info->cam_mul[i] = d.color.cam_mul[i];
        info->pre_mul[i] = d.color.pre_mul[i];
        for (int j = 0; j < 3; j++) info->cam_xyz[i][j] = d.color.cam_xyz[i][j];
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) info->rgb_cam[i][j] = d.color.rgb_cam[i][j];
    info->baseline_exposure = d.color.dng_levels.baseline_exposure;

    info->iso_speed = d.other.iso_speed;
    info->shutter = d.other.shutter;
    info->aperture = d.other.aperture;
    info->focal_length = d.other.focal_len;
    info->focal_length_35mm = d.lens.FocalLengthIn35mmFormat;
    if (d.other.timestamp > 0) {
        struct tm t;
        time_t stamp = d.other.timestamp;
        if (localtime_r(&stamp, &t)) strftime(info->date_time, sizeof info->date_time, "%Y:%m:%d %H:%M:%S", &t);
    }
    copy_text(info->artist, sizeof info->artist, d.other.artist);
    copy_text(info->description, sizeof info->description, d.other.desc);
    copy_text(info->lens_make, sizeof info->lens_make, d.lens.LensMake);
    copy_text(info->lens, sizeof info->lens, d.lens.Lens[0] ? d.lens.Lens : d.lens.makernotes.Lens);
    info->lens_min_focal = d.lens.MinFocal;
    info->lens_max_focal = d.lens.MaxFocal;
    info->lens_max_aperture_min_focal = d.lens.MaxAp4MinFocal;
    info->lens_max_aperture_max_focal = d.lens.MaxAp4MaxFocal;
    const libraw_gps_info_t &g = d.other.parsed_gps;
    if (g.gpsparsed) {
        info->has_gps = 1;
        info->latitude = degrees(g.latitude) * (g.latref == 'S' ? -1 : 1);
        info->longitude = degrees(g.longitude) * (g.longref == 'W' ? -1 : 1);
        info->altitude = g.altitude * (g.altref == 1 ? -1 : 1);
    }

    info->thumb_format = d.thumbnail.tformat;
    info->thumb_width = d.thumbnail.twidth;
    info->thumb_height = d.thumbnail.theight;
    info->thumb_length = d.thumbnail.tlength;
    const char *decoder = p.unpack_function_name();
    copy_text(info->decoder, sizeof info->decoder, decoder ? decoder : "");
    const unpacker_data_t &u = p.get_internal_data_pointer()->unpacker_data;
    info->data_offset = u.data_offset;
    info->data_size = u.data_size;
}

extern "C" {

const char *lux_libraw_version(void) { return libraw_version(); }

const char *lux_libraw_strerror(int error) { return libraw_strerror(error); }

int lux_libraw_camera_count(void) { return libraw_cameraCount(); }

int lux_libraw_probe(const void *data, size_t size, unsigned max_memory_mb, int timeout_ms) {
    int channel[2];
    if (pipe(channel) != 0) return LUX_LIBRAW_PROBE_UNAVAILABLE;
    const pid_t child = fork();
    if (child < 0) {
        close(channel[0]);
        close(channel[1]);
        return LUX_LIBRAW_PROBE_UNAVAILABLE;
    }
    if (child == 0) {
        // Only this thread exists here: identify, report the status and leave without running any exit handler.
        close(channel[0]);
        int status = LIBRAW_UNSUFFICIENT_MEMORY;
        LibRaw *p = new (std::nothrow) LibRaw();
        if (p != nullptr) {
            p->set_dataerror_handler(ignore_data_error, nullptr);
            p->set_memerror_handler(ignore_memory_error, nullptr);
            if (max_memory_mb > 0) p->imgdata.params.max_raw_memory_mb = max_memory_mb;
            status = p->open_buffer(const_cast<void *>(data), size);
        }
        ssize_t written = write(channel[1], &status, sizeof status);
        _exit(written == (ssize_t)sizeof status ? 0 : 1);
    }
    close(channel[1]);
    int result = LUX_LIBRAW_PROBE_CRASHED;
    int wstatus = 0;
    const long limit_us = (long)timeout_ms * 1000;
    for (long elapsed_us = 0;;) {
        const pid_t done = waitpid(child, &wstatus, WNOHANG);
        if (done == child) break;
        if (done < 0) {
            result = LUX_LIBRAW_PROBE_UNAVAILABLE;
            break;
        }
        if (elapsed_us >= limit_us) {
            kill(child, SIGKILL);
            waitpid(child, &wstatus, 0);
            close(channel[0]);
            return LUX_LIBRAW_PROBE_TIMED_OUT;
        }
        const long step_us = elapsed_us < 5000 ? 200 : 2000;  // a header takes milliseconds: poll finely at first
        struct timespec pause = {0, step_us * 1000};
        nanosleep(&pause, nullptr);
        elapsed_us += step_us;
    }
    int status = 0;
    if (result == LUX_LIBRAW_PROBE_CRASHED && WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 &&
        read(channel[0], &status, sizeof status) == (ssize_t)sizeof status)
        result = status;
    close(channel[0]);
    return result;
}

lux_libraw *lux_libraw_open(const void *data, size_t size, unsigned max_memory_mb, lux_libraw_info *info,
                            int *error) {
    lux_libraw *raw = nullptr;
    try {
        raw = new lux_libraw();
    } catch (...) {
        *error = LIBRAW_UNSUFFICIENT_MEMORY;
        return nullptr;
    }
    LibRaw &p = raw->processor;
    p.set_dataerror_handler(record_data_error, raw);
    p.set_memerror_handler(ignore_memory_error, raw);
    if (max_memory_mb > 0) p.imgdata.params.max_raw_memory_mb = max_memory_mb;
    int status = p.open_buffer(const_cast<void *>(data), size);
    if (status != LIBRAW_SUCCESS) {
        *error = status;
        delete raw;
        return nullptr;
    }
    fill_info(raw, info);
    *error = 0;
    return raw;
}

size_t lux_libraw_black_pattern(const lux_libraw *raw, unsigned *dst, size_t capacity) {
    const libraw_colordata_t &c = raw->processor.imgdata.color;
    unsigned rows = c.cblack[4], cols = c.cblack[5];
    if (rows == 0 || cols == 0 || rows > 64 || cols > 64 || 6 + rows * cols > LIBRAW_CBLACK_SIZE) return 0;
    size_t n = (size_t)rows * cols;
    if (n > capacity) return 0;
    for (size_t i = 0; i < n; i++) dst[i] = c.cblack[6 + i];
    return n;
}

int lux_libraw_unpack(lux_libraw *raw, lux_libraw_info *info, long long *data_error) {
    LibRaw &p = raw->processor;
    int status = p.unpack();
    if (raw->first_data_error == -2 && p.error_count() > 0) raw->first_data_error = -1;
    *data_error = raw->first_data_error;
    if (status == LIBRAW_SUCCESS) fill_levels(p, info);
    return status;
}

int lux_libraw_data_layout(const lux_libraw *raw, int *samples_per_pixel) {
    const libraw_rawdata_t &r = raw->processor.imgdata.rawdata;
    if (r.raw_image) { *samples_per_pixel = 1; return LUX_LIBRAW_MOSAIC; }
    if (r.color4_image) { *samples_per_pixel = 4; return LUX_LIBRAW_COLOR; }
    if (r.color3_image) { *samples_per_pixel = 3; return LUX_LIBRAW_COLOR; }
    if (r.float_image) { *samples_per_pixel = 1; return LUX_LIBRAW_FLOAT_MOSAIC; }
    if (r.float4_image) { *samples_per_pixel = 4; return LUX_LIBRAW_FLOAT_COLOR; }
    if (r.float3_image) { *samples_per_pixel = 3; return LUX_LIBRAW_FLOAT_COLOR; }
    *samples_per_pixel = 0;
    return 0;
}

int lux_libraw_copy_data(const lux_libraw *raw, void *dst, size_t dst_row_bytes) {
    const libraw_data_t &d = raw->processor.imgdata;
    const libraw_rawdata_t &r = d.rawdata;
    int spp = 0;
    int layout = lux_libraw_data_layout(raw, &spp);
    if (layout == 0) return -1;
    const int w = r.sizes.raw_width, h = r.sizes.raw_height;
    const size_t pitch = r.sizes.raw_pitch;
    const uint8_t *base = static_cast<const uint8_t *>(r.raw_alloc);
    if (r.raw_image) base = reinterpret_cast<const uint8_t *>(r.raw_image);
    else if (r.color4_image) base = reinterpret_cast<const uint8_t *>(r.color4_image);
    else if (r.color3_image) base = reinterpret_cast<const uint8_t *>(r.color3_image);
    else if (r.float_image) base = reinterpret_cast<const uint8_t *>(r.float_image);
    else if (r.float4_image) base = reinterpret_cast<const uint8_t *>(r.float4_image);
    else base = reinterpret_cast<const uint8_t *>(r.float3_image);
    for (int y = 0; y < h; y++) {
        const uint8_t *src = base + (size_t)y * pitch;
        uint8_t *out = static_cast<uint8_t *>(dst) + (size_t)y * dst_row_bytes;
        switch (layout) {
        case LUX_LIBRAW_MOSAIC: memcpy(out, src, (size_t)w * 2); break;
        case LUX_LIBRAW_FLOAT_MOSAIC: memcpy(out, src, (size_t)w * 4); break;
        case LUX_LIBRAW_COLOR: {
            const uint16_t *s = reinterpret_cast<const uint16_t *>(src);
            uint16_t *o = reinterpret_cast<uint16_t *>(out);
            for (int x = 0; x < w; x++)
                for (int c = 0; c < 4; c++) o[x * 4 + c] = c < 3 ? s[x * spp + c] : 65535;
            break;
        }
        default: {
            const float *s = reinterpret_cast<const float *>(src);
            float *o = reinterpret_cast<float *>(out);
            for (int x = 0; x < w; x++)
                for (int c = 0; c < 4; c++) o[x * 4 + c] = c < 3 ? s[x * spp + c] : 1.0f;
        }
        }
    }
    return 0;
}

const void *lux_libraw_mosaic(const lux_libraw *raw, size_t *row_bytes) {
    int spp = 0;
    const int layout = lux_libraw_data_layout(raw, &spp);
    const libraw_rawdata_t &r = raw->processor.imgdata.rawdata;
    *row_bytes = r.sizes.raw_pitch;
    if (layout == LUX_LIBRAW_MOSAIC) return r.raw_image;
    if (layout == LUX_LIBRAW_FLOAT_MOSAIC) return r.float_image;
    return nullptr;
}

int lux_libraw_unpack_thumbnail(lux_libraw *raw) { return raw->processor.unpack_thumb(); }

const uint8_t *lux_libraw_thumbnail(const lux_libraw *raw, size_t *length) {
    const libraw_thumbnail_t &t = raw->processor.imgdata.thumbnail;
    *length = t.thumb ? t.tlength : 0;
    return reinterpret_cast<const uint8_t *>(t.thumb);
}

void lux_libraw_close(lux_libraw *raw) { delete raw; }
}
