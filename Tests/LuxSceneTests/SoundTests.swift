import RealModule
import Testing

@testable import LuxScene

@Suite struct SoundTests {
    @Test("The tone has its amplitude and the noise its RMS")
    func levels() {
        let s = SoundSource(toneFrequency: 1000, toneAmplitude: 0.3, noiseAmplitude: 0.05, seed: 9)
        let n = 48_000
        let x = s.samples(startingAt: 0, count: n, sampleRate: 48_000)
        // Single-bin DFT at 1 kHz over exactly 1000 cycles.
        var re = 0.0
        var im = 0.0
        for i in 0..<n {
            let ph = 2 * Double.pi * 1000 * Double(i) / 48_000
            re += Double(x[i]) * _cos(ph)
            im += Double(x[i]) * _sin(ph)
        }
        let amplitude = 2 * (re * re + im * im).squareRoot() / Double(n)
        #expect(abs(amplitude - 0.3) < 0.003)
        var residual = 0.0
        for i in 0..<n {
            let t = 0.3 * _sin(2 * Double.pi * 1000 * Double(i) / 48_000)
            residual += (Double(x[i]) - t) * (Double(x[i]) - t)
        }
        #expect(abs((residual / Double(n)).squareRoot() / 0.05 - 1) < 0.03)
    }

    @Test("Any chunking of the stream gives the same samples")
    func chunking() {
        let s = SoundSource()
        let whole = s.samples(startingAt: 1000, count: 3000, sampleRate: 44_100)
        let parts =
            s.samples(startingAt: 1000, count: 1234, sampleRate: 44_100)
            + s.samples(startingAt: 2234, count: 1766, sampleRate: 44_100)
        #expect(whole == parts)
    }
}

func _sin(_ x: Double) -> Double { Double.sin(x) }
func _cos(_ x: Double) -> Double { Double.cos(x) }
