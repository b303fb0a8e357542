public import LuxPixels

/// A V4L2 pixel format Lux can stream, and how its frames are delivered.
public struct V4L2PixelFormat: Hashable, Sendable {
    /// How the bytes of a buffer are laid out.
    public enum Layout: Hashable, Sendable {
        /// Packed 4:2:2 Y′CbCr, Y0 Cb Y1 Cr (`V4L2_PIX_FMT_YUYV`).
        case yuyv
        /// A Y′ plane then an interleaved CbCr plane at half resolution (`V4L2_PIX_FMT_NV12`).
        case nv12
        /// A Motion-JPEG frame (`V4L2_PIX_FMT_MJPEG`), decoded with libjpeg-turbo.
        case mjpeg
        /// A Bayer mosaic of `bits`-bit samples: one byte each at 8 bits, else one little-endian 16-bit word.
        case bayer(CFAPattern, bits: Int)
    }

    /// The four-character code.
    public var fourCC: String
    /// The byte layout.
    public var layout: Layout

    /// The pixel format processed frames are delivered in: BGRA for YUYV, MJPEG and Bayer, 4:2:0 video range for NV12,
    /// and ``PixelFormat/bayer16(_:)`` for the RAW of a Bayer format.
    public var deliveredFormat: PixelFormat {
        switch layout {
        case .yuyv, .mjpeg: .bgra8
        case .nv12: .yCbCr420VideoRange
        case .bayer(let cfa, _): .bayer16(cfa)
        }
    }

    /// Whether frames carry a Bayer RAW.
    public var isBayer: Bool {
        if case .bayer = layout { return true }
        return false
    }

    /// The formats Lux streams, by four-character code.
    public static let all: [String: V4L2PixelFormat] = {
        var out: [String: V4L2PixelFormat] = [
            "YUYV": V4L2PixelFormat(fourCC: "YUYV", layout: .yuyv),
            "NV12": V4L2PixelFormat(fourCC: "NV12", layout: .nv12),
            "MJPG": V4L2PixelFormat(fourCC: "MJPG", layout: .mjpeg),
        ]
        // linux/videodev2.h: V4L2_PIX_FMT_S{BGGR,GBRG,GRBG,RGGB}{8,10,12,16}.
        let bayer: [(String, CFAPattern, Int)] = [
            ("BA81", .bggr, 8), ("GBRG", .gbrg, 8), ("GRBG", .grbg, 8), ("RGGB", .rggb, 8),
            ("BG10", .bggr, 10), ("GB10", .gbrg, 10), ("BA10", .grbg, 10), ("RG10", .rggb, 10),
            ("BG12", .bggr, 12), ("GB12", .gbrg, 12), ("BA12", .grbg, 12), ("RG12", .rggb, 12),
            ("BYR2", .bggr, 16), ("GB16", .gbrg, 16), ("GR16", .grbg, 16), ("RG16", .rggb, 16),
        ]
        for (code, cfa, bits) in bayer { out[code] = V4L2PixelFormat(fourCC: code, layout: .bayer(cfa, bits: bits)) }
        return out
    }()
}
