// zlib helpers (zlib reports errors by return code; no setjmp needed).
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "CLuxCodecShims.h"

static void lux_zlib_message(char *dst, size_t capacity, const char *text) {
    if (dst == NULL || capacity == 0) return;
    size_t n = strlen(text);
    if (n >= capacity) n = capacity - 1;
    memcpy(dst, text, n);
    dst[n] = 0;
}

long lux_inflate(const uint8_t *src, size_t src_size, uint8_t *dst, size_t dst_capacity, int raw,
                 int *complete, char *message, size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    *complete = 0;
    if (inflateInit2(&stream, raw ? -15 : 47) != Z_OK) {  // 47 = zlib or gzip header, 32 KiB window
        lux_zlib_message(message, capacity, "zlib could not start");
        return -1;
    }
    size_t produced = 0;
    size_t consumed = 0;
    for (;;) {
        // avail_in/avail_out are 32-bit: feed at most 1 GiB per call.
        size_t in_chunk = src_size - consumed;
        if (in_chunk > (1u << 30)) in_chunk = 1u << 30;
        size_t out_chunk = dst_capacity - produced;
        if (out_chunk > (1u << 30)) out_chunk = 1u << 30;
        stream.next_in = (Bytef *)(src + consumed);
        stream.avail_in = (uInt)in_chunk;
        stream.next_out = dst + produced;
        stream.avail_out = (uInt)out_chunk;
        int status = inflate(&stream, Z_NO_FLUSH);
        consumed += in_chunk - stream.avail_in;
        produced += out_chunk - stream.avail_out;
        if (status == Z_STREAM_END) {
            *complete = 1;
            break;
        }
        if (status == Z_OK) {
            if (produced == dst_capacity || consumed == src_size) break;
            continue;
        }
        if (status == Z_BUF_ERROR) break;  // no progress possible: input exhausted or output full
        lux_zlib_message(message, capacity, stream.msg ? stream.msg : "corrupt deflate data");
        inflateEnd(&stream);
        return -1;
    }
    inflateEnd(&stream);
    return (long)produced;
}

int lux_deflate(const uint8_t *src, size_t src_size, int level, uint8_t **out, size_t *out_size,
                char *message, size_t capacity) {
    *out = NULL;
    *out_size = 0;
    uLong bound = compressBound((uLong)src_size);
    uint8_t *buffer = (uint8_t *)malloc(bound ? bound : 1);
    if (buffer == NULL) {
        lux_zlib_message(message, capacity, "out of memory");
        return -1;
    }
    uLongf length = bound;
    if (compress2(buffer, &length, src, (uLong)src_size, level) != Z_OK) {
        free(buffer);
        lux_zlib_message(message, capacity, "zlib could not compress the data");
        return -1;
    }
    *out = buffer;
    *out_size = (size_t)length;
    return 0;
}

int lux_deflate_segment(const uint8_t *src, size_t size, const uint8_t *dictionary, size_t dictionary_size,
                        int level, int strategy, int last, uint8_t **out, size_t *out_size, char *message,
                        size_t capacity) {
    *out = NULL;
    *out_size = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, level, Z_DEFLATED, -15, 8, strategy == 1 ? Z_FILTERED : Z_DEFAULT_STRATEGY) != Z_OK) {
        lux_zlib_message(message, capacity, "zlib could not start");
        return -1;
    }
    if (dictionary_size > 0 && deflateSetDictionary(&stream, dictionary, (uInt)dictionary_size) != Z_OK) {
        deflateEnd(&stream);
        lux_zlib_message(message, capacity, "zlib refused the dictionary");
        return -1;
    }
    // Room for the worst case plus the sync flush's empty stored block.
    size_t bound = (size_t)deflateBound(&stream, (uLong)size) + 16;
    uint8_t *buffer = (uint8_t *)malloc(bound);
    if (buffer == NULL) {
        deflateEnd(&stream);
        lux_zlib_message(message, capacity, "out of memory");
        return -1;
    }
    stream.next_out = buffer;
    stream.avail_out = (uInt)bound;
    size_t consumed = 0;
    int status = Z_OK;
    do {
        // avail_in is 32-bit: feed at most 1 GiB per call.
        size_t chunk = size - consumed;
        if (chunk > (1u << 30)) chunk = 1u << 30;
        stream.next_in = (Bytef *)(src + consumed);
        stream.avail_in = (uInt)chunk;
        consumed += chunk;
        int flush = consumed < size ? Z_NO_FLUSH : (last ? Z_FINISH : Z_SYNC_FLUSH);
        status = deflate(&stream, flush);
    } while (consumed < size && status == Z_OK);
    int complete = last ? status == Z_STREAM_END : (status == Z_OK && stream.avail_in == 0);
    size_t produced = bound - stream.avail_out;
    deflateEnd(&stream);
    if (!complete) {
        free(buffer);
        lux_zlib_message(message, capacity, "zlib could not compress the data");
        return -1;
    }
    *out = buffer;
    *out_size = produced;
    return 0;
}

uint32_t lux_adler32(uint32_t adler, const uint8_t *data, size_t size) {
    uLong value = adler;
    while (size > 0) {
        uInt chunk = size > (1u << 30) ? (1u << 30) : (uInt)size;
        value = adler32(value, data, chunk);
        data += chunk;
        size -= chunk;
    }
    return (uint32_t)value;
}

uint32_t lux_adler32_combine(uint32_t first, uint32_t second, size_t second_size) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_size);
}
