// FFmpeg's libswscale: Y′CbCr ↔ RGB conversion with a stream's matrix and range.
#include <libswscale/swscale.h>
