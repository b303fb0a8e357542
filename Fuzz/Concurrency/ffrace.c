// RACE_THREADS threads wait at a barrier (STAGGER=1: then 0-3 ms apart), then each makes the process's first use of an FFmpeg path
// Lux drives from several threads at once (libx264 through avcodec_open2, the H.264 decoder, swscale) and hashes its
// output; the hashes are compared with a sequential run of the same work afterwards in the same process. Exit status 1
// on a mismatch.
#include "race.h"
#include <libavcodec/avcodec.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <pthread.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 362, H = 278, FRAMES = 8, MAXBYTES = 4 << 20 };
static const char *mode;
static uint8_t *stream;  // an Annex B H.264 stream made by the sequential reference (for the decode mode)
static int stream_size;
static int packet_end[64], packets;  // where each packet of `stream` ends (the first: the extradata)

static void fill(AVFrame *f, int k) {
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) f->data[0][y * f->linesize[0] + x] = (uint8_t)((x * 3 + y * 5 + k * 7) ^ (x * y >> 6));
    for (int y = 0; y < H / 2; y++)
        for (int x = 0; x < W / 2; x++) {
            f->data[1][y * f->linesize[1] + x] = (uint8_t)(128 + ((x + k) & 31));
            f->data[2][y * f->linesize[2] + x] = (uint8_t)(128 - ((y + k) & 31));
        }
}

static uint64_t encode(uint8_t *out, int *out_size) {
    const AVCodec *codec = avcodec_find_encoder_by_name("libx264");
    AVCodecContext *c = avcodec_alloc_context3(codec);
    c->width = W; c->height = H; c->pix_fmt = AV_PIX_FMT_YUV420P;
    c->time_base = (AVRational){1, 600}; c->framerate = (AVRational){30, 1}; c->gop_size = 30; c->thread_count = 0;
    c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER; c->colorspace = AVCOL_SPC_BT709;
    AVDictionary *o = NULL;
    av_dict_set(&o, "preset", "veryfast", 0); av_dict_set(&o, "crf", "20", 0);
    av_dict_set(&o, "x264-params", "sync-lookahead=0", 0);
    if (avcodec_open2(c, codec, &o) < 0) { fprintf(stderr, "open failed\n"); exit(2); }
    av_dict_free(&o);
    AVFrame *f = av_frame_alloc(); f->width = W; f->height = H; f->format = AV_PIX_FMT_YUV420P;
    av_frame_get_buffer(f, 0);
    AVPacket *p = av_packet_alloc();
    uint64_t h = fnv(RACE_FNV_START, c->extradata, c->extradata_size);
    int size = 0;
    if (out) { memcpy(out, c->extradata, c->extradata_size); size = c->extradata_size; packet_end[packets++] = size; }
    for (int k = 0; k <= FRAMES; k++) {
        if (k < FRAMES) { av_frame_make_writable(f); fill(f, k); f->pts = k * 20; }
        avcodec_send_frame(c, k < FRAMES ? f : NULL);
        while (avcodec_receive_packet(c, p) == 0) {
            h = fnv(h, p->data, p->size);
            if (out && size + p->size < MAXBYTES) { memcpy(out + size, p->data, p->size); size += p->size; packet_end[packets++] = size; }
            av_packet_unref(p);
        }
    }
    if (out_size) *out_size = size;
    av_packet_free(&p); av_frame_free(&f); avcodec_free_context(&c);
    return h;
}

static uint64_t decode_and_scale(int scale) {
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_H264);
    AVCodecContext *c = avcodec_alloc_context3(codec);
    c->thread_count = 0;
    if (avcodec_open2(c, codec, NULL) < 0) exit(2);
    AVPacket *p = av_packet_alloc();
    AVFrame *f = av_frame_alloc();
    uint8_t *rgba = malloc(W * H * 4);
    struct SwsContext *s = NULL;
    uint64_t h = RACE_FNV_START;
    for (int k = 1; k <= packets; k++) {
        int flush = k == packets;
        if (!flush) {  // the parameter sets travel with the first picture
            int start = k == 1 ? 0 : packet_end[k - 1];
            p->data = stream + start; p->size = packet_end[k] - start;
        }
        avcodec_send_packet(c, flush ? NULL : p);
        while (avcodec_receive_frame(c, f) == 0) {
            if (scale) {
                if (!s) {
                    s = sws_getContext(W, H, f->format, W, H, AV_PIX_FMT_RGBA, SWS_BICUBIC | SWS_ACCURATE_RND, 0, 0, 0);
                    sws_setColorspaceDetails(s, sws_getCoefficients(SWS_CS_ITU709), 0, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
                }
                uint8_t *d[4] = {rgba}; int ls[4] = {W * 4};
                sws_scale(s, (const uint8_t *const *)f->data, f->linesize, 0, H, d, ls);
                h = fnv(h, rgba, W * H * 4);
            } else {
                for (int y = 0; y < H; y++) h = fnv(h, f->data[0] + y * f->linesize[0], W);
            }
            av_frame_unref(f);
        }
    }
    sws_freeContext(s); free(rgba);
    av_frame_free(&f); av_packet_free(&p); avcodec_free_context(&c);
    return h;
}

static uint64_t work(void) {
    if (!strcmp(mode, "x264")) return encode(NULL, NULL);
    if (!strcmp(mode, "h264")) return decode_and_scale(0);
    return decode_and_scale(1);
}

int main(int argc, char **argv) {
    mode = argc > 1 ? argv[1] : "x264";
    av_log_set_level(AV_LOG_ERROR);
    if (strcmp(mode, "x264")) {  // the decoders need a stream: made by libx264 once, before the concurrent phase
        stream = malloc(MAXBYTES);
        encode(stream, &stream_size);
    }
    return race_run(mode, work);
}
