// FFmpeg's libavcodec: decoders and encoders (H.264, HEVC, AAC through libx264, libx265 and FFmpeg's own).
#include <libavcodec/avcodec.h>
