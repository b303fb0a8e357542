// libwebp's public C API: the codec (VP8, VP8L), the container's chunks and the animation decoder (libwebpdemux),
// and assembling containers and animations (libwebpmux). The three libraries come in one Debian package.
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
