// Prints whether the installed libavcodec serialises each codec's init: avcodec_open2 takes FFmpeg's global codec
// lock unless FF_CODEC_CAP_INIT_THREADSAFE (bit 0 of FFCodec.caps_internal, the first field after the public AVCodec
// in FFmpeg 5.1's codec_internal.h) is set. FFmpeg 6 inverted the flag; this reads 5.x only.
#include <libavcodec/avcodec.h>
#include <stdio.h>

static void show(const char *kind, const AVCodec *c) {
    if (!c) {
        printf("%-16s missing\n", kind);
        return;
    }
    unsigned caps = *(const unsigned *)((const char *)c + sizeof(AVCodec));
    printf("%-16s %-8s INIT_THREADSAFE=%u (%s)\n", kind, c->name, caps & 1u,
           caps & 1u ? "init not serialised" : "init under FFmpeg's lock");
}

int main(void) {
    printf("libavcodec %s\n", AV_STRINGIFY(LIBAVCODEC_VERSION));
    if (LIBAVCODEC_VERSION_MAJOR != 59) printf("(not FFmpeg 5.x: the bit means something else)\n");
    show("encoder", avcodec_find_encoder_by_name("libx264"));
    show("encoder", avcodec_find_encoder_by_name("libx265"));
    show("decoder", avcodec_find_decoder(AV_CODEC_ID_H264));
    show("decoder", avcodec_find_decoder(AV_CODEC_ID_HEVC));
    show("encoder", avcodec_find_encoder(AV_CODEC_ID_AAC));
    return 0;
}
