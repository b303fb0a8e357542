public import FoundationEssentials

extension AudioSamples {
    /// The audio as a WAVE file (RIFF, 16-bit PCM, little-endian).
    public func wavData() -> [UInt8] {
        var w = ByteWriter(bigEndian: false, capacity: 44 + 2 * samples.count)
        let dataBytes = UInt32(2 * samples.count)
        w.append(Array("RIFF".utf8))
        w.u32(36 + dataBytes)
        w.append(Array("WAVEfmt ".utf8))
        w.u32(16)
        w.u16(1)  // PCM
        w.u16(UInt16(channelCount))
        w.u32(UInt32(sampleRate))
        w.u32(UInt32(sampleRate * channelCount * 2))
        w.u16(UInt16(channelCount * 2))
        w.u16(16)
        w.append(Array("data".utf8))
        w.u32(dataBytes)
        for s in samples { w.u16(UInt16(bitPattern: s)) }
        return w.bytes
    }

    /// Writes the audio as a WAVE file, atomically (temporary file, then rename).
    ///
    /// - Throws: ``CodecError/io(path:reason:)``.
    public func writeWAV(to url: URL) throws(CodecError) {
        try FileIO.writeAtomically(wavData(), to: url)
    }
}
