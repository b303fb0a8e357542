import Foundation
import LuxCodecs
import Testing

/// The HDR headroom of Apple's gain maps from maker-note tags 33 and 48, against Apple's published formula
/// ("Applying Apple HDR effect to your photos") evaluated by hand.
@Suite struct AppleMakerNoteHDRTests {
    static func note(_ m33: Double?, _ m48: Double?) -> AppleMakerNote {
        var fields: [UInt16: TIFFValue] = [:]
        if let m33 { fields[33] = .doubles([m33]) }
        if let m48 { fields[48] = .doubles([m48]) }
        return AppleMakerNote(contentIdentifier: nil, otherFields: fields)
    }

    @Test(
        "each branch of Apple's formula: 2^(−20·0.005 + 1.8), 2^(−0.101·0.5 + 1.601), 2^(−70·0.004 + 3), 2^(−0.303·2 + 2.303)"
    )
    func formulaBranches() throws {
        let cases: [(Double, Double, Double)] = [
            (0.8786, 0.005, pow(2, 1.7)),  // m33 < 1, m48 ≤ 0.01
            (0.8786, 0.5, pow(2, 1.5505)),  // m33 < 1
            (1.2, 0.004, pow(2, 2.72)),  // m48 ≤ 0.01
            (1.2, 2, pow(2, 1.697)),  // otherwise
        ]
        for (m33, m48, expected) in cases {
            let headroom = try #require(Self.note(m33, m48).hdrHeadroom)
            #expect(abs(headroom - expected) < 1e-9, "m33 \(m33), m48 \(m48): \(headroom) vs \(expected)")
        }
        // Negative stops give no headroom beyond SDR white: 2^0.
        #expect(Self.note(1.2, 10).hdrHeadroom == 1)
    }

    @Test("no headroom without both tags (Apple: the gain map is valid only with tags 33 and 48)")
    func needsBothTags() {
        #expect(Self.note(0.8786, nil).hdrHeadroom == nil)
        #expect(Self.note(nil, 0.005).hdrHeadroom == nil)
        #expect(Self.note(nil, nil).hdrHeadroom == nil)
    }
}
