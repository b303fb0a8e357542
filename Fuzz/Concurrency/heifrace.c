// RACE_THREADS threads wait at a barrier (STAGGER=1: then 0-3 ms apart), then each makes the process's first use of libheif the
// way Lux does from several threads at once: "decode" reads a small HEIC (libde265 through libheif's plugin) to interleaved
// RGB; "avif" encodes a small RGB image to AVIF (libaom through libheif's plugin). Each hashes its output; the hashes
// are compared with a sequential run afterwards in the same process. Exit status 1 on a mismatch.
#include "race.h"
#include <libheif/heif.h>
#include <pthread.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *mode;
static uint8_t *heic;  // the HEIC the decode mode reads: made by libheif's x265 plugin before the concurrent phase
static size_t heic_size;

static uint64_t decode(void) {
    struct heif_context *c = heif_context_alloc();
    if (heif_context_read_from_memory_without_copy(c, heic, heic_size, NULL).code) exit(2);
    struct heif_image_handle *h;
    heif_context_get_primary_image_handle(c, &h);
    struct heif_image *img;
    if (heif_decode_image(h, &img, heif_colorspace_RGB, heif_chroma_interleaved_RGB, NULL).code) exit(2);
    int stride;
    const uint8_t *p = heif_image_get_plane_readonly(img, heif_channel_interleaved, &stride);
    int w = heif_image_get_width(img, heif_channel_interleaved), ht = heif_image_get_height(img, heif_channel_interleaved);
    uint64_t hash = RACE_FNV_START;
    for (int y = 0; y < ht; y++) hash = fnv(hash, p + (size_t)y * stride, (size_t)w * 3);
    heif_image_release(img); heif_image_handle_release(h); heif_context_free(c);
    return hash;
}

static struct heif_error writer(struct heif_context *ctx, const void *data, size_t size, void *userdata) {
    (void)ctx;
    *(uint64_t *)userdata = fnv(*(uint64_t *)userdata, data, size);
    return (struct heif_error){heif_error_Ok, heif_suberror_Unspecified, ""};
}

static struct heif_error append(struct heif_context *ctx, const void *data, size_t size, void *userdata) {
    (void)ctx; (void)userdata;
    heic = realloc(heic, heic_size + size);
    memcpy(heic + heic_size, data, size);
    heic_size += size;
    return (struct heif_error){heif_error_Ok, heif_suberror_Unspecified, ""};
}

// Encodes a 200 x 136 RGB pattern with `format`'s encoder: returns the file's hash, or appends the file to `heic`.
static uint64_t encode(enum heif_compression_format format, int keep) {
    enum { W = 200, H = 136 };
    struct heif_context *c = heif_context_alloc();
    struct heif_encoder *e;
    if (heif_context_get_encoder_for_format(c, format, &e).code) exit(2);
    heif_encoder_set_lossy_quality(e, 80);
    struct heif_image *img;
    heif_image_create(W, H, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &img);
    heif_image_add_plane(img, heif_channel_interleaved, W, H, 8);
    int stride;
    uint8_t *p = heif_image_get_plane(img, heif_channel_interleaved, &stride);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W * 3; x++) p[y * stride + x] = (uint8_t)(x * 7 + y * 3 + ((x * y) >> 5));
    struct heif_image_handle *h;
    if (heif_context_encode_image(c, img, e, NULL, &h).code) exit(2);
    uint64_t hash = RACE_FNV_START;
    struct heif_writer w = {1, keep ? append : writer};
    heif_context_write(c, &w, &hash);
    heif_image_handle_release(h); heif_image_release(img); heif_encoder_release(e); heif_context_free(c);
    return hash;
}

static uint64_t work(void) { return strcmp(mode, "avif") ? decode() : encode(heif_compression_AV1, 0); }

int main(int argc, char **argv) {
    mode = argc > 1 ? argv[1] : "decode";
    heif_init(NULL);  // as Lux does, once, before any other use
    if (strcmp(mode, "avif")) encode(heif_compression_HEVC, 1);
    return race_run(mode, work);
}
