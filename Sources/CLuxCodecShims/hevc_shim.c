// HEVC still pictures through x265 (its C API reports errors by return value; no setjmp needed).
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x265.h>

#include "CLuxCodecShims.h"

static int lux_hevc_fail(char *message, size_t capacity, const char *format, ...) {
    if (message != NULL && capacity > 0) {
        va_list arguments;
        va_start(arguments, format);
        vsnprintf(message, capacity, format, arguments);
        va_end(arguments);
    }
    return -1;
}

/// x265 fills process-wide tables (its function table of primitives, the CTU globals of x265_set_globals) in the
/// first encoder_open of each bit depth, unguarded: a second encoder opened meanwhile on another thread sees the
/// table half filled and can call a null entry (a crash seen in CI, x265 issue #245). Every encoder Lux opens is
/// opened under this lock, and lux_x265_prepare does a first open before FFmpeg's libx265 opens encoders of its own.
static pthread_mutex_t lux_x265_lock = PTHREAD_MUTEX_INITIALIZER;
/// The bit depths (8…16) whose first encoder has been opened; guarded by lux_x265_lock.
static int lux_x265_ready[17];

/// Sets a picture's size, bit depth and chroma format, no logging, and one thread per picture: Lux encodes the tiles
/// of a grid in parallel, and a fixed single-threaded encode gives the same bytes on any machine.
static void lux_x265_configure(x265_param *p, int width, int height, int bit_depth, int csp) {
    p->sourceWidth = width;
    p->sourceHeight = height;
    p->internalBitDepth = bit_depth;
    p->internalCsp = csp;
    p->fpsNum = 1;
    p->fpsDenom = 1;
    p->logLevel = X265_LOG_NONE;
    p->frameNumThreads = 1;
    p->bEnableWavefront = 0;
    p->numaPools = "none";
    p->lookaheadThreads = 0;
}

static x265_encoder *lux_x265_open(const x265_api *api, x265_param *p) {
    pthread_mutex_lock(&lux_x265_lock);
    x265_encoder *encoder = api->encoder_open(p);
    if (encoder != NULL && p->internalBitDepth >= 8 && p->internalBitDepth <= 16)
        lux_x265_ready[p->internalBitDepth] = 1;
    pthread_mutex_unlock(&lux_x265_lock);
    return encoder;
}

int lux_x265_prepare(int bit_depth, const char *preset) {
    if (bit_depth < 8 || bit_depth > 16) return -1;
    pthread_mutex_lock(&lux_x265_lock);
    int status = 0;
    if (!lux_x265_ready[bit_depth]) {
        status = -1;
        const x265_api *api = x265_api_get(bit_depth);
        x265_param *p = api != NULL ? api->param_alloc() : NULL;
        if (p != NULL && api->param_default_preset(p, preset, NULL) == 0) {
            lux_x265_configure(p, 64, 64, bit_depth, X265_CSP_I420);
            x265_encoder *encoder = api->encoder_open(p);
            if (encoder != NULL) {
                api->encoder_close(encoder);
                lux_x265_ready[bit_depth] = 1;
                status = 0;
            }
        }
        if (p != NULL) api->param_free(p);
    }
    pthread_mutex_unlock(&lux_x265_lock);
    return status;
}

/// Appends the NAL units of `nals` whose type is (or, with `parameter_sets` 0, is not) a VPS, SPS or PPS. x265 is
/// set to length-prefixed output (bAnnexB = 0), so each payload already starts with its 4-byte big-endian length.
static int lux_hevc_append(uint8_t **buffer, size_t *size, size_t *capacity, const x265_nal *nals, uint32_t count,
                           int parameter_sets) {
    for (uint32_t i = 0; i < count; i++) {
        int is_parameter_set = nals[i].type == NAL_UNIT_VPS || nals[i].type == NAL_UNIT_SPS ||
                               nals[i].type == NAL_UNIT_PPS;
        if (is_parameter_set != parameter_sets) continue;
        size_t needed = *size + nals[i].sizeBytes;
        if (needed > *capacity) {
            size_t grown = needed > 2 * *capacity ? needed : 2 * *capacity;
            uint8_t *bigger = realloc(*buffer, grown);
            if (bigger == NULL) return -1;
            *buffer = bigger;
            *capacity = grown;
        }
        memcpy(*buffer + *size, nals[i].payload, nals[i].sizeBytes);
        *size = needed;
    }
    return 0;
}

int lux_hevc_encode_picture(const lux_hevc_encode_params *params, const void *const planes[3],
                            const size_t strides[3], uint8_t **headers, size_t *headers_size, uint8_t **data,
                            size_t *data_size, char *message, size_t capacity) {
    *headers = NULL;
    *data = NULL;
    *headers_size = 0;
    *data_size = 0;
    const x265_api *api = x265_api_get(params->bit_depth);
    if (api == NULL) return lux_hevc_fail(message, capacity, "x265 has no %d-bit encoder", params->bit_depth);
    x265_param *p = api->param_alloc();
    if (p == NULL) return lux_hevc_fail(message, capacity, "x265: out of memory");
    int status = -1;
    x265_encoder *encoder = NULL;
    x265_picture *picture = NULL;
    size_t headers_capacity = 0, data_capacity = 0;
    if (api->param_default_preset(p, params->preset, NULL) < 0) {
        lux_hevc_fail(message, capacity, "x265 does not know the preset '%s'", params->preset);
        goto done;
    }
    lux_x265_configure(p, params->width, params->height, params->bit_depth,
                       params->chroma == LUX_HEVC_CHROMA_400 ? X265_CSP_I400 : X265_CSP_I420);
    p->totalFrames = 1;
    p->keyframeMax = 1;
    p->bframes = 0;
    p->lookaheadDepth = 0;
    p->bAnnexB = 0;
    p->bRepeatHeaders = 0;
    p->bEmitInfoSEI = 0;
    p->rc.rateControlMode = X265_RC_CRF;
    p->rc.rfConstant = params->crf;
    p->vui.bEnableVideoSignalTypePresentFlag = 1;
    p->vui.bEnableVideoFullRangeFlag = params->full_range;
    p->vui.bEnableColorDescriptionPresentFlag = 1;
    p->vui.colorPrimaries = params->primaries;
    p->vui.transferCharacteristics = params->transfer;
    p->vui.matrixCoeffs = params->matrix;
    const char *profile = params->chroma == LUX_HEVC_CHROMA_400
                              ? (params->bit_depth > 8 ? "main444-10-intra" : "main444-intra")
                              : (params->bit_depth > 8 ? "main10-intra" : "mainstillpicture");
    if (api->param_apply_profile(p, profile) < 0) {
        lux_hevc_fail(message, capacity, "x265 cannot apply the profile %s", profile);
        goto done;
    }
    encoder = lux_x265_open(api, p);
    if (encoder == NULL) {
        lux_hevc_fail(message, capacity, "x265 could not open a %dx%d %d-bit encoder", params->width,
                      params->height, params->bit_depth);
        goto done;
    }
    x265_nal *nals = NULL;
    uint32_t count = 0;
    if (api->encoder_headers(encoder, &nals, &count) < 0 ||
        lux_hevc_append(headers, headers_size, &headers_capacity, nals, count, 1) != 0) {
        lux_hevc_fail(message, capacity, "x265 could not write the parameter sets");
        goto done;
    }
    picture = api->picture_alloc();
    if (picture == NULL) {
        lux_hevc_fail(message, capacity, "x265: out of memory");
        goto done;
    }
    api->picture_init(p, picture);
    picture->bitDepth = params->bit_depth;
    picture->colorSpace = p->internalCsp;
    int planes_count = params->chroma == LUX_HEVC_CHROMA_400 ? 1 : 3;
    for (int i = 0; i < planes_count; i++) {
        picture->planes[i] = (void *)planes[i];
        picture->stride[i] = (int)strides[i];
    }
    x265_picture *input = picture;
    for (;;) {
        int got = api->encoder_encode(encoder, &nals, &count, input, NULL);
        if (got < 0) {
            lux_hevc_fail(message, capacity, "x265 failed to encode the picture");
            goto done;
        }
        if (count > 0 && lux_hevc_append(data, data_size, &data_capacity, nals, count, 0) != 0) {
            lux_hevc_fail(message, capacity, "x265: out of memory");
            goto done;
        }
        if (input == NULL && got == 0) break;
        input = NULL;
    }
    if (*data_size == 0 || *headers_size == 0) {
        lux_hevc_fail(message, capacity, "x265 produced no picture");
        goto done;
    }
    status = 0;
done:
    if (picture != NULL) api->picture_free(picture);
    if (encoder != NULL) api->encoder_close(encoder);
    api->param_free(p);
    if (status != 0) {
        free(*headers);
        free(*data);
        *headers = NULL;
        *data = NULL;
        *headers_size = 0;
        *data_size = 0;
    }
    return status;
}
