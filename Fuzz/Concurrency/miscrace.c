// RACE_THREADS threads wait at a barrier (STAGGER=1: then 0-3 ms apart), then each makes the process's first use of one library
// Lux drives from several threads at once and hashes its output; the hashes are compared with a sequential run
// afterwards in the same process. Modes: jpeg (libjpeg-turbo compress + decompress, its SIMD detection), webp (libwebp
// encode + decode, its DSP init), lcms (lcms2: a context, two profiles and a transform each, as LuxColor's
// ICCTransform), png (libpng write + read), zlib (deflate at level 9). Exit status 1 on a mismatch.
#include "race.h"
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#include <lcms2.h>
#include <png.h>
#include <pthread.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <zlib.h>

enum { W = 301, H = 203 };
static const char *mode;
static uint8_t rgb[W * H * 3];

static uint64_t jpeg(void) {
    struct jpeg_compress_struct c; struct jpeg_error_mgr e;
    c.err = jpeg_std_error(&e); jpeg_create_compress(&c);
    unsigned char *buf = NULL; unsigned long size = 0;
    jpeg_mem_dest(&c, &buf, &size);
    c.image_width = W; c.image_height = H; c.input_components = 3; c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c); jpeg_set_quality(&c, 85, TRUE); jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < H) { JSAMPROW r = rgb + c.next_scanline * W * 3; jpeg_write_scanlines(&c, &r, 1); }
    jpeg_finish_compress(&c); jpeg_destroy_compress(&c);
    uint64_t h = fnv(RACE_FNV_START, buf, size);
    struct jpeg_decompress_struct d; d.err = jpeg_std_error(&e); jpeg_create_decompress(&d);
    jpeg_mem_src(&d, buf, size); jpeg_read_header(&d, TRUE); jpeg_start_decompress(&d);
    uint8_t row[W * 3];
    while (d.output_scanline < d.output_height) { JSAMPROW r = row; jpeg_read_scanlines(&d, &r, 1); h = fnv(h, row, sizeof row); }
    jpeg_finish_decompress(&d); jpeg_destroy_decompress(&d); free(buf);
    return h;
}

static uint64_t webp(void) {
    uint8_t *out; size_t n = WebPEncodeRGB(rgb, W, H, W * 3, 80, &out);
    uint64_t h = fnv(RACE_FNV_START, out, n);
    int w, ht; uint8_t *px = WebPDecodeRGB(out, n, &w, &ht);
    h = fnv(h, px, (size_t)w * ht * 3);
    WebPFree(px); WebPFree(out);
    uint8_t *ll; n = WebPEncodeLosslessRGB(rgb, W, H, W * 3, &ll);
    h = fnv(h, ll, n); WebPFree(ll);
    return h;
}

static uint64_t lcms(void) {
    cmsContext ctx = cmsCreateContext(NULL, NULL);
    cmsHPROFILE a = cmsCreate_sRGBProfileTHR(ctx);
    cmsCIExyY d50; cmsWhitePointFromTemp(&d50, 5003);
    cmsHPROFILE b = cmsCreateLab4ProfileTHR(ctx, NULL);
    cmsHTRANSFORM t = cmsCreateTransformTHR(ctx, a, TYPE_RGB_8, b, TYPE_Lab_16, INTENT_PERCEPTUAL, cmsFLAGS_NOCACHE);
    static uint16_t lab[W * H * 3];
    uint16_t *o = malloc(sizeof lab);
    cmsDoTransformLineStride(t, rgb, o, W, H, W * 3, W * 6, 0, 0);
    uint64_t h = fnv(RACE_FNV_START, (uint8_t *)o, sizeof lab);
    free(o); cmsDeleteTransform(t); cmsCloseProfile(a); cmsCloseProfile(b); cmsDeleteContext(ctx);
    return h;
}

struct membuf { uint8_t *p; size_t n, cap, at; };
static void pw(png_structp p, png_bytep d, size_t n) {
    struct membuf *m = png_get_io_ptr(p);
    if (m->n + n > m->cap) { m->cap = (m->n + n) * 2; m->p = realloc(m->p, m->cap); }
    memcpy(m->p + m->n, d, n); m->n += n;
}
static void pr(png_structp p, png_bytep d, size_t n) { struct membuf *m = png_get_io_ptr(p); memcpy(d, m->p + m->at, n); m->at += n; }
static void pf(png_structp p) { (void)p; }

static uint64_t png(void) {
    struct membuf m = {0};
    png_structp w = png_create_write_struct(PNG_LIBPNG_VER_STRING, 0, 0, 0); png_infop wi = png_create_info_struct(w);
    png_set_write_fn(w, &m, pw, pf);
    png_set_IHDR(w, wi, W, H, 8, PNG_COLOR_TYPE_RGB, 0, 0, 0); png_write_info(w, wi);
    for (int y = 0; y < H; y++) png_write_row(w, rgb + y * W * 3);
    png_write_end(w, wi); png_destroy_write_struct(&w, &wi);
    uint64_t h = fnv(RACE_FNV_START, m.p, m.n);
    png_structp r = png_create_read_struct(PNG_LIBPNG_VER_STRING, 0, 0, 0); png_infop ri = png_create_info_struct(r);
    png_set_read_fn(r, &m, pr); png_read_info(r, ri);
    uint8_t row[W * 3];
    for (int y = 0; y < H; y++) { png_read_row(r, row, NULL); h = fnv(h, row, sizeof row); }
    png_destroy_read_struct(&r, &ri, NULL); free(m.p);
    return h;
}

static uint64_t zlib(void) {
    uLongf n = compressBound(sizeof rgb); uint8_t *o = malloc(n);
    compress2(o, &n, rgb, sizeof rgb, 9);
    uint64_t h = fnv(RACE_FNV_START, o, n) ^ crc32(0, rgb, sizeof rgb);
    free(o);
    return h;
}

static uint64_t work(void) {
    if (!strcmp(mode, "jpeg")) return jpeg();
    if (!strcmp(mode, "webp")) return webp();
    if (!strcmp(mode, "lcms")) return lcms();
    if (!strcmp(mode, "png")) return png();
    return zlib();
}

int main(int argc, char **argv) {
    mode = argv[1];
    for (int i = 0; i < W * H * 3; i++) rgb[i] = (uint8_t)(i * 13 ^ (i >> 7));
    return race_run(mode, work);
}
