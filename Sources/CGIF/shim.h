// giflib's public C API: reading and writing GIF files (frames, palettes, graphics control extensions).
#include <gif_lib.h>
