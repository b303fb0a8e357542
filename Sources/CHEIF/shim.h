// libheif's public C API (decoding through libde265, the file structure, metadata and colour profiles).
#include <libheif/heif.h>
