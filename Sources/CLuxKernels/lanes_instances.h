// Compiles the row template named by LUX_ROWS (a quoted file name) at every width of lanes.h: one lane, and on x86
// four (SSE) and eight (AVX2); then clears lanes.h's definitions, leaving LUX_RUN to dispatch among them.
#define LUX_LANES 1
#include "lanes.h"
#include LUX_ROWS
#undef LUX_LANES
#if LUX_X86
#define LUX_LANES 4
#include "lanes.h"
#include LUX_ROWS
#undef LUX_LANES
#define LUX_LANES 8
#include "lanes.h"
#include LUX_ROWS
#undef LUX_LANES
#endif
#include "lanes.h"
#undef LUX_ROWS
