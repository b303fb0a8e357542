enum DNGWriter {
    static func encode(_ raw: RawImage, options: EncodingOptions) throws(CodecError) -> [UInt8] {
        throw .invalidArgument("not yet")
    }
}
