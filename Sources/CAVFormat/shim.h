// FFmpeg's libavformat: demuxing (QuickTime/MPEG-4 and the other containers FFmpeg reads).
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
