// zxing-cpp's C++ headers (Debian libzxing-dev 1.4). Only the C++ target CLuxZXing includes them; Swift imports
// CLuxZXing's C interface instead.
#include <ZXing/BitMatrix.h>
#include <ZXing/MultiFormatWriter.h>
#include <ZXing/ReadBarcode.h>
