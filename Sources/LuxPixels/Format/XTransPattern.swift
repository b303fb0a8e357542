/// The 6×6 colour filter array of Fujifilm's X-Trans sensors, at a phase.
///
/// Every X-Trans sensor uses the same 6×6 arrangement (``referenceLayout``, read row by row): each row and column
/// holds all three colours, green fills 20 of the 36 photosites, and each 3×3 block holds five greens. A sensor's
/// active area, and any window of it, starts somewhere inside that arrangement: the phase says where, as the
/// column and row of the reference layout that pixel (0, 0) shows.
///
/// ```swift
/// let pattern = XTransPattern(phaseX: 0, phaseY: 0)    // G G R G G B on the first row
/// pattern.channel(x: 2, y: 0)                          // .red
/// pattern.shifted(x: 1, y: 0).channel(x: 1, y: 0)      // .red: the window starts one column later
/// ```
public struct XTransPattern: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The X-Trans arrangement at phase (0, 0), row by row (LibRaw's layout for the X-Pro1).
    public static let referenceLayout: [CFAPattern.Channel] = {
        let rows = ["GGRGGB", "GGBGGR", "BRGRBG", "GGBGGR", "GGRGGB", "RBGBRG"]
        return rows.joined().map { $0 == "R" ? .red : ($0 == "G" ? .green : .blue) }
    }()

    /// The column of ``referenceLayout`` at pixel (0, 0), 0…5.
    public let phaseX: Int
    /// The row of ``referenceLayout`` at pixel (0, 0), 0…5.
    public let phaseY: Int

    /// The pattern whose pixel (0, 0) shows column `phaseX` and row `phaseY` of the reference layout (any integers;
    /// they are taken modulo 6).
    public init(phaseX: Int = 0, phaseY: Int = 0) {
        self.phaseX = ((phaseX % 6) + 6) % 6
        self.phaseY = ((phaseY % 6) + 6) % 6
    }

    /// The pattern with these 36 colours (row by row from pixel (0, 0)), or `nil` when they are not a phase of the
    /// X-Trans arrangement.
    public init?(cells: [CFAPattern.Channel]) {
        guard cells.count == 36 else { return nil }
        for py in 0..<6 {
            for px in 0..<6 {
                let candidate = XTransPattern(phaseX: px, phaseY: py)
                if candidate.cells == cells {
                    self = candidate
                    return
                }
            }
        }
        return nil
    }

    /// The channel at `(x, y)` (any coordinates; the pattern repeats every six pixels).
    @inlinable
    public func channel(x: Int, y: Int) -> CFAPattern.Channel {
        let row = (((y + phaseY) % 6) + 6) % 6
        let column = (((x + phaseX) % 6) + 6) % 6
        return Self.referenceLayout[row * 6 + column]
    }

    /// The 36 channels from pixel (0, 0), row by row.
    public var cells: [CFAPattern.Channel] {
        (0..<36).map { channel(x: $0 % 6, y: $0 / 6) }
    }

    /// The pattern seen from a window that starts at `(dx, dy)` in this pattern.
    public func shifted(x dx: Int, y dy: Int) -> XTransPattern {
        XTransPattern(phaseX: phaseX + dx, phaseY: phaseY + dy)
    }

    /// "X-Trans" and the phase, such as "X-Trans (phase 0, 0)".
    public var description: String { "X-Trans (phase \(phaseX), \(phaseY))" }
}
