public import LuxCodecs
public import LuxPixels

/// The colour filter array of a sensor mosaic the developer demosaics: Bayer (2×2) or X-Trans (6×6), at the phase
/// of pixel (0, 0).
public enum MosaicLayout: Hashable, Sendable, CustomStringConvertible {
    /// A 2×2 Bayer layout.
    case bayer(CFAPattern)
    /// Fujifilm's 6×6 X-Trans layout.
    case xTrans(XTransPattern)

    /// The layout of a raw description's CFA at its active area's origin, `nil` for other CFAs.
    public init?(_ cfa: CFALayout) {
        if let p = cfa.bayerPattern {
            self = .bayer(p)
        } else if let p = cfa.xTransPattern {
            self = .xTrans(p)
        } else {
            return nil
        }
    }

    /// The colour at `(x, y)` (any coordinates).
    @inline(__always)
    public func channel(x: Int, y: Int) -> CFAPattern.Channel {
        switch self {
        case .bayer(let p): p.channel(x: x, y: y)
        case .xTrans(let p): p.channel(x: x, y: y)
        }
    }

    /// The layout seen from a window that starts at `(dx, dy)`.
    public func shifted(x dx: Int, y dy: Int) -> MosaicLayout {
        switch self {
        case .bayer(let p): .bayer(p.shifted(x: dx, y: dy))
        case .xTrans(let p): .xTrans(p.shifted(x: dx, y: dy))
        }
    }

    /// The period of the layout in both directions (2 or 6).
    public var period: Int {
        switch self {
        case .bayer: 2
        case .xTrans: 6
        }
    }

    /// The photosite that stands for coordinate `i` of an axis of `n` photosites: `i` itself inside; outside, one of
    /// the same colour phase — the mirror image about the edge photosite for Bayer layouts, the photosite a whole
    /// number of periods inside for X-Trans (which no mirror keeps in phase).
    @inline(__always)
    public func edge(_ i: Int, _ n: Int) -> Int {
        if i >= 0 && i < n { return i }
        let p = period
        guard p != 2, n >= p else { return BilinearDemosaic.reflect(i, n) }
        if i < 0 { return ((i % p) + p) % p }
        return n - p + (((i - (n - p)) % p) + p) % p
    }

    /// "RGGB" for Bayer layouts, "X-Trans (phase x, y)" for X-Trans.
    public var description: String {
        switch self {
        case .bayer(let p): p.rawValue
        case .xTrans(let p): p.description
        }
    }
}
