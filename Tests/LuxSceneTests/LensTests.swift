import Testing

@testable import LuxScene

@Suite struct LensTests {
    let lens = ThinLens(
        focalLength: 4.25, fNumber: 1.8, closestFocusDistance: 0.1, farthestFocusDistance: 5, circleOfConfusion: 0.002)

    @Test("Blur circle matches the thin-lens examples of ALGORITHMS §6.3")
    func blurExamples() {
        // f = 4.25 mm, N = 1.8, 1.4 µm pixels.
        let px = 0.0014
        #expect(abs(lens.blurDiameter(objectDistance: 0.5, focusDistance: 1) - 0.0101) < 0.0002)
        #expect(abs(lens.blurDiameter(objectDistance: 2, focusDistance: 1) / px - 3.6) < 0.1)
        #expect(abs(lens.blurDiameter(objectDistance: .infinity, focusDistance: 1) / px - 7.2) < 0.1)
        #expect(abs(lens.blurDiameter(objectDistance: 1, focusDistance: 0.3) / px - 17) < 0.3)
        #expect(lens.blurDiameter(objectDistance: 0.7, focusDistance: 0.7) == 0)
    }

    @Test("Depth of field and hyperfocal distance match ALGORITHMS §6.4")
    func depthOfField() {
        #expect(abs(lens.hyperfocalDistance - 5.0) < 0.05)
        let dof = lens.depthOfField(focusDistance: 1)
        #expect(abs(dof.lowerBound - 0.83) < 0.01 && abs(dof.upperBound - 1.25) < 0.01)
        var wide = lens
        wide.circleOfConfusion = 0.004
        #expect(abs(wide.hyperfocalDistance - 2.5) < 0.03)
        let d2 = wide.depthOfField(focusDistance: 1)
        #expect(abs(d2.lowerBound - 0.72) < 0.01 && abs(d2.upperBound - 1.66) < 0.02)
        // Focused at the hyperfocal distance, everything from H/2 to infinity is sharp.
        let h = lens.depthOfField(focusDistance: lens.hyperfocalDistance)
        #expect(abs(h.lowerBound - lens.hyperfocalDistance / 2) < 0.01 && h.upperBound == .infinity)
        // At the DoF limits the blur equals the circle of confusion (the formulas are exact for a thin lens).
        #expect(abs(lens.blurDiameter(objectDistance: dof.lowerBound, focusDistance: 1) - 0.002) < 1e-6)
        #expect(abs(lens.blurDiameter(objectDistance: dof.upperBound, focusDistance: 1) - 0.002) < 1e-6)
    }

    @Test("Lens position is linear in dioptres between the closest and farthest focus")
    func lensPositionMapping() {
        #expect(abs(lens.focusDistance(lensPosition: 0) - 0.1) < 1e-12)
        #expect(abs(lens.focusDistance(lensPosition: 1) - 5) < 1e-9)
        for p in [0.0, 0.3, 0.77, 1.0] {
            #expect(abs(lens.lensPosition(focusDistance: lens.focusDistance(lensPosition: p)) - p) < 1e-12)
        }
        // Half-way in position is half-way in dioptres: (10 + 0.2)/2 D.
        #expect(abs(1 / lens.focusDistance(lensPosition: 0.5) - 5.1) < 1e-9)
    }
}
