// The C interface of CLuxZXing.h over zxing-cpp 1.4. C++ exceptions never cross into Swift: each entry point
// catches them and reports a message.
#include "CLuxZXing.h"

#include <ZXing/BitMatrix.h>
#include <ZXing/MultiFormatWriter.h>
#include <ZXing/ReadBarcode.h>
#include <ZXing/ZXVersion.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>

// zxing-cpp 1.4 installs only its multi-format API; the Aztec encoder and the PDF417 writer, whose layout options
// that API does not reach, are exported from libZXing but their headers are not installed. These declarations
// state the parts of their 1.4 interface used here; with any other zxing-cpp version the two layout entry points
// refuse with an error instead of calling classes whose layout may differ.
#define LUX_ZX_TEXT(x) #x
#define LUX_ZX_STRING(x) LUX_ZX_TEXT(x)
#define LUX_ZX_LAYOUTS (ZXING_VERSION_MAJOR == 1 && ZXING_VERSION_MINOR == 4)
#if LUX_ZX_LAYOUTS
namespace ZXing {
namespace Aztec {
struct EncodeResult {
    bool compact;
    int size;
    int layers;
    int codeWords;
    BitMatrix matrix;
};
class Encoder {
public:
    // `layers`: 0 chooses; −1…−4 a compact symbol of that many layers; 1…32 a full one.
    static EncodeResult Encode(const std::string &data, int minECCPercent, int userSpecifiedLayers);
};
}  // namespace Aztec
namespace Pdf417 {
enum class Compaction { AUTO, TEXT, BYTE, NUMERIC };
class Encoder;
class Writer {
public:
    Writer();
    Writer(Writer &&) noexcept;
    ~Writer();
    Writer &setMargin(int margin) {
        _margin = margin;
        return *this;
    }
    Writer &setErrorCorrectionLevel(int level) {
        _ecLevel = level;
        return *this;
    }
    Writer &setDimensions(int minCols, int maxCols, int minRows, int maxRows);
    Writer &setCompaction(Compaction compaction);
    BitMatrix encode(const std::wstring &contents, int width, int height) const;

private:
    int _margin = -1;
    int _ecLevel = -1;
    std::unique_ptr<Encoder> _encoder;
};
}  // namespace Pdf417
}  // namespace ZXing
#endif

namespace {

void report(char *error, size_t capacity, const std::string &message) {
    if (error == nullptr || capacity == 0) return;
    std::strncpy(error, message.c_str(), capacity - 1);
    error[capacity - 1] = 0;
}

void copyString(char *destination, size_t capacity, const std::string &source) {
    std::strncpy(destination, source.c_str(), capacity - 1);
    destination[capacity - 1] = 0;
}

// Copies `matrix` into a malloc'ed row-major array of 0/1 bytes.
int deliver(const ZXing::BitMatrix &matrix, uint8_t **modules, int *width, int *height, char *error,
            size_t errorCapacity) {
    const int w = matrix.width();
    const int h = matrix.height();
    auto *out = static_cast<uint8_t *>(std::malloc(static_cast<size_t>(w) * static_cast<size_t>(h) + 1));
    if (out == nullptr) {
        report(error, errorCapacity, "out of memory");
        return -1;
    }
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) out[y * w + x] = matrix.get(x, y) ? 1 : 0;
    }
    *modules = out;
    *width = w;
    *height = h;
    return 0;
}

// Whether the top row of a PDF417 matrix begins with the start pattern's 8 dark modules.
bool startsWithStartPattern(const ZXing::BitMatrix &matrix) {
    if (matrix.width() < 9 || matrix.height() < 1) return false;
    for (int x = 0; x < 8; ++x) {
        if (!matrix.get(x, 0)) return false;
    }
    return !matrix.get(8, 0);
}

}  // namespace

extern "C" int lux_zx_read(const uint8_t *luminance, int width, int height, int rowStride, int formats,
                           int tryHarder, int tryRotate, int maxCount, LuxZXCode **codes, char *error,
                           size_t errorCapacity) {
    *codes = nullptr;
    try {
        ZXing::ImageView view(luminance, width, height, ZXing::ImageFormat::Lum, rowStride);
        ZXing::DecodeHints hints;
        hints.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(formats)));
        hints.setTryHarder(tryHarder != 0);
        hints.setTryRotate(tryRotate != 0);
        hints.setMaxNumberOfSymbols(static_cast<uint8_t>(maxCount < 1 ? 1 : (maxCount > 255 ? 255 : maxCount)));
        ZXing::Results results = ZXing::ReadBarcodes(view, hints);
        int valid = 0;
        for (const auto &r : results) valid += r.isValid() ? 1 : 0;
        if (valid == 0) return 0;
        auto *out = static_cast<LuxZXCode *>(std::calloc(static_cast<size_t>(valid), sizeof(LuxZXCode)));
        if (out == nullptr) {
            report(error, errorCapacity, "out of memory");
            return -1;
        }
        int i = 0;
        for (const auto &r : results) {
            if (!r.isValid()) continue;
            LuxZXCode &c = out[i++];
            c.format = static_cast<int>(r.format());
            const ZXing::ByteArray &bytes = r.bytes();
            c.byteCount = bytes.size();
            c.bytes = static_cast<uint8_t *>(std::malloc(bytes.size() + 1));
            if (c.bytes == nullptr) {
                lux_zx_free_codes(out, i);
                report(error, errorCapacity, "out of memory");
                return -1;
            }
            if (!bytes.empty()) std::memcpy(c.bytes, bytes.data(), bytes.size());
            const ZXing::Position &p = r.position();
            for (int k = 0; k < 4; ++k) {
                c.corners[2 * k] = p[k].x;
                c.corners[2 * k + 1] = p[k].y;
            }
            const auto level = r.ecLevel();
            copyString(c.ecLevel, sizeof c.ecLevel, std::string(level.begin(), level.end()));
            copyString(c.symbologyIdentifier, sizeof c.symbologyIdentifier, r.symbologyIdentifier());
            c.isMirrored = r.isMirrored() ? 1 : 0;
        }
        *codes = out;
        return valid;
    } catch (const std::exception &e) {
        report(error, errorCapacity, e.what());
    } catch (...) {
        report(error, errorCapacity, "unknown zxing-cpp failure");
    }
    return -1;
}

extern "C" void lux_zx_free_codes(LuxZXCode *codes, int count) {
    if (codes == nullptr) return;
    for (int i = 0; i < count; ++i) std::free(codes[i].bytes);
    std::free(codes);
}

extern "C" int lux_zx_write(int format, const uint8_t *message, size_t count, int eccLevel, uint8_t **modules,
                            int *width, int *height, char *error, size_t errorCapacity) {
    *modules = nullptr;
    try {
        std::wstring text(count, L'\0');
        for (size_t i = 0; i < count; ++i) text[i] = static_cast<wchar_t>(message[i]);
        ZXing::MultiFormatWriter writer(static_cast<ZXing::BarcodeFormat>(format));
        // No encoding is set: zxing-cpp then writes byte mode without an ECI segment, as Core Image does.
        writer.setMargin(0);
        if (eccLevel >= 0) writer.setEccLevel(eccLevel);
        return deliver(writer.encode(text, 0, 0), modules, width, height, error, errorCapacity);
    } catch (const std::exception &e) {
        report(error, errorCapacity, e.what());
    } catch (...) {
        report(error, errorCapacity, "unknown zxing-cpp failure");
    }
    return -1;
}

extern "C" int lux_zx_write_aztec(const uint8_t *message, size_t count, int eccPercent, int layers, uint8_t **modules,
                                  int *width, int *height, int *compact, char *error, size_t errorCapacity) {
    *modules = nullptr;
#if LUX_ZX_LAYOUTS
    try {
        std::string bytes(reinterpret_cast<const char *>(message), count);
        ZXing::Aztec::EncodeResult result = ZXing::Aztec::Encoder::Encode(bytes, eccPercent, layers);
        *compact = result.compact ? 1 : 0;
        return deliver(result.matrix, modules, width, height, error, errorCapacity);
    } catch (const std::exception &e) {
        report(error, errorCapacity, e.what());
    } catch (...) {
        report(error, errorCapacity, "unknown zxing-cpp failure");
    }
    return -1;
#else
    report(error, errorCapacity,
           "symbol layouts need zxing-cpp 1.4 (this is " LUX_ZX_STRING(ZXING_VERSION_MAJOR) "." LUX_ZX_STRING(
               ZXING_VERSION_MINOR) ")");
    return -1;
#endif
}

extern "C" int lux_zx_write_pdf417(const uint8_t *message, size_t count, int eccLevel, int columns, int rows,
                                   int compaction, int compact, uint8_t **modules, int *width, int *height,
                                   char *error, size_t errorCapacity) {
    *modules = nullptr;
#if LUX_ZX_LAYOUTS
    try {
        std::wstring text(count, L'\0');
        for (size_t i = 0; i < count; ++i) text[i] = static_cast<wchar_t>(message[i]);
        ZXing::Pdf417::Writer writer;
        writer.setMargin(0).setErrorCorrectionLevel(eccLevel);
        writer.setDimensions(columns > 0 ? columns : 1, columns > 0 ? columns : 30, rows > 0 ? rows : 3,
                             rows > 0 ? rows : 90);
        writer.setCompaction(static_cast<ZXing::Pdf417::Compaction>(compaction));
        // zxing-cpp turns a symbol taller than wide a quarter turn; width and height hints of the symbol's own
        // orientation are not known before encoding, so the turn is undone here: a symbol starts with 8 dark modules.
        ZXing::BitMatrix matrix = writer.encode(text, 0, 0);
        if (!startsWithStartPattern(matrix)) {
            matrix.rotate90();
            if (!startsWithStartPattern(matrix)) matrix.rotate180();
        }
        if (compact == 0) return deliver(matrix, modules, width, height, error, errorCapacity);
        // Compact PDF417 (ISO/IEC 15438 annex): the right row indicator (17 modules) and the stop pattern (18) give
        // way to a single dark module. zxing-cpp 1.4 ignores its own compact option, so the full symbol is cut here.
        const int kept = matrix.width() - 35;
        ZXing::BitMatrix cut(kept + 1, matrix.height());
        for (int y = 0; y < matrix.height(); ++y) {
            for (int x = 0; x < kept; ++x) {
                if (matrix.get(x, y)) cut.set(x, y);
            }
            cut.set(kept, y);
        }
        return deliver(cut, modules, width, height, error, errorCapacity);
    } catch (const std::exception &e) {
        report(error, errorCapacity, e.what());
    } catch (...) {
        report(error, errorCapacity, "unknown zxing-cpp failure");
    }
    return -1;
#else
    report(error, errorCapacity,
           "symbol layouts need zxing-cpp 1.4 (this is " LUX_ZX_STRING(ZXING_VERSION_MAJOR) "." LUX_ZX_STRING(
               ZXING_VERSION_MINOR) ")");
    return -1;
#endif
}

extern "C" void lux_zx_free(void *pointer) { std::free(pointer); }
