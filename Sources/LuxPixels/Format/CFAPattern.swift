/// The 2×2 colour filter array layout of a Bayer sensor, named by its top-left quad read row by row.
public enum CFAPattern: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case rggb = "RGGB"
    case grbg = "GRBG"
    case gbrg = "GBRG"
    case bggr = "BGGR"

    /// A colour channel of the filter array.
    public enum Channel: Int, Hashable, Sendable, Codable {
        case red = 0
        case green = 1
        case blue = 2
    }

    /// The channel at `(x, y)` (any coordinates; the pattern repeats every two pixels).
    @inlinable
    public func channel(x: Int, y: Int) -> Channel {
        let quad = quadChannels
        return quad[(y & 1) * 2 + (x & 1)]
    }

    /// The four channels of the top-left quad, row by row.
    public var quadChannels: [Channel] {
        switch self {
        case .rggb: [.red, .green, .green, .blue]
        case .grbg: [.green, .red, .blue, .green]
        case .gbrg: [.green, .blue, .red, .green]
        case .bggr: [.blue, .green, .green, .red]
        }
    }

    /// The pattern seen from a window that starts at `(dx, dy)` in this pattern.
    public func shifted(x dx: Int, y dy: Int) -> CFAPattern {
        let q = quadChannels
        let shifted = (0..<4).map { i in q[((i / 2 + dy) & 1) * 2 + ((i % 2 + dx) & 1)] }
        return CFAPattern.allCases.first { $0.quadChannels == shifted } ?? self
    }

    /// The pattern for a quad of channels (`nil` if it is not one of the four Bayer layouts).
    public init?(quad: [Channel]) {
        guard let p = CFAPattern.allCases.first(where: { $0.quadChannels == quad }) else { return nil }
        self = p
    }

    public var description: String { rawValue }
}
