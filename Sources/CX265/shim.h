// x265's public C API: the HEVC encoder libheif also uses, called directly to encode grid tiles.
#include <x265.h>
