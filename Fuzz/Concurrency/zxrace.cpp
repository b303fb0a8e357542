// RACE_THREADS threads wait at a barrier (STAGGER=1: then 0-3 ms apart), then each makes the process's first use of zxing-cpp as
// Lux's CodeWriter/CodeReader do (write a QR code, an Aztec code and a Data Matrix, read each back) and hashes the
// modules and the texts; compared with a sequential run afterwards. Exit status 1 on a mismatch.
#include "race.h"
#include <ZXing/BitMatrix.h>
#include <ZXing/MultiFormatWriter.h>
#include <ZXing/ReadBarcode.h>
#include <ZXing/TextUtfEncoding.h>
#include <pthread.h>
#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>


static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    auto b = static_cast<const uint8_t *>(p);
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static uint64_t work() {
    uint64_t h = RACE_FNV_START;
    for (auto f : {ZXing::BarcodeFormat::QRCode, ZXing::BarcodeFormat::Aztec, ZXing::BarcodeFormat::DataMatrix}) {
        ZXing::MultiFormatWriter w(f);
        w.setMargin(4);
        auto bits = w.encode(L"Lux race14 " + std::wstring(40, L'x'), 0, 0);
        auto m = ZXing::ToMatrix<uint8_t>(bits);
        h = fnv(h, m.data(), m.size());
        auto r = ZXing::ReadBarcode({m.data(), m.width(), m.height(), ZXing::ImageFormat::Lum});
        std::string t = ZXing::TextUtfEncoding::ToUtf8(r.text());
        h = fnv(h, t.data(), t.size());
    }
    return h;
}

int main() {
    return race_run("zxing", work);
}
