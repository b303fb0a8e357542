import LuxPixels
import Testing

@Suite struct GeometryTests {
    @Test func intersectionAndUnionWithInfiniteExtents() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(r.intersection(.infinite) == r)
        #expect(Rect.infinite.intersection(r) == r)
        #expect(r.union(.infinite).isInfinite)
        #expect(r.intersection(Rect(x: 100, y: 0, width: 5, height: 5)).isEmpty)
        #expect(
            r.intersection(Rect(x: 30, y: 50, width: 100, height: 100)) == Rect(x: 30, y: 50, width: 10, height: 10))
        #expect(r.union(.null) == r)
        #expect(Rect.infinite.insetBy(dx: 5, dy: 5).isInfinite)
    }

    @Test func integralRoundsOutward() {
        #expect(Rect(x: 0.5, y: -0.5, width: 1.2, height: 2).integral == Rect(minX: 0, minY: -1, maxX: 2, maxY: 2))
        #expect(Rect(x: 3, y: 4, width: 5, height: 6).isIntegral)
    }

    @Test func affineInverseAndComposition() throws {
        let t = AffineTransform(scaleX: 2, y: 3).translatedBy(x: 5, y: -1)
        // Hand-computed: (1, 1) → scale (2, 3) → translate (7, 2).
        #expect(t.apply(to: Point(x: 1, y: 1)) == Point(x: 7, y: 2))
        let inv = try #require(t.inverted)
        let p = inv.apply(to: Point(x: 7, y: 2))
        #expect(abs(p.x - 1) < 1e-12 && abs(p.y - 1) < 1e-12)
        #expect(t.concatenating(inv).apply(to: Point(x: 3, y: 4)) == Point(x: 3, y: 4))
        // A 90° rotation maps the unit square's bounding box to [-1, 0] × [0, 1].
        let box = AffineTransform(rotationAngle: .pi / 2).apply(to: Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(
            abs(box.minX + 1) < 1e-12 && abs(box.maxX) < 1e-12 && abs(box.minY) < 1e-12 && abs(box.maxY - 1) < 1e-12)
    }

    @Test func mediaTimeArithmeticIsExact() {
        let frame = MediaTime(value: 1, timescale: 30)
        #expect((frame * 45).seconds == 1.5)
        #expect(frame * 45 == MediaTime(value: 3, timescale: 2))
        #expect(frame + MediaTime(value: 1, timescale: 60) == MediaTime(value: 1, timescale: 20))
        #expect(MediaTime(value: 1, timescale: 3).converted(toTimescale: 600) == MediaTime(value: 200, timescale: 600))
        #expect(MediaTime(value: 1, timescale: 7).converted(toTimescale: 10, rounding: .up).value == 2)
        #expect(MediaTime(value: 1, timescale: 7).converted(toTimescale: 10, rounding: .down).value == 1)
        #expect(MediaTime.positiveInfinity > MediaTime(value: Int64.max, timescale: 1))
        #expect((MediaTime.positiveInfinity + MediaTime.negativeInfinity).kind == .invalid)
        #expect(MediaTime(value: 1, timescale: 3) < MediaTime(value: 333_334, timescale: 1_000_000))
        #expect(Set([MediaTime(value: 1, timescale: 2), MediaTime(value: 15, timescale: 30)]).count == 1)
    }
}
