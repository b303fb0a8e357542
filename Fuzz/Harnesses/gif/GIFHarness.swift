import FuzzSupport

@testable import LuxCodecs

/// GIF: Lux's block walk (sizes checked before giflib allocates), giflib's LZW decoder, and the composition of
/// frames with their disposal methods.
func fuzzGIF(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    _ = try? ImageFile.info(data: bytes, limits: Fuzz.options.limits)
    _ = try? GIF.decode(bytes, options: Fuzz.options)
    var third = Fuzz.options
    third.imageIndex = 2
    _ = try? GIF.decode(bytes, options: third)
    return 0
}

@_cdecl("fuzz_gif_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzGIF) {
        let image = Seeds.gradient(width: 24, height: 16)
        let alpha = Seeds.gradient(width: 24, height: 16, alpha: true)
        let animation = try AnimationEncoder(format: .gif, width: 24, height: 16)
        for frame in [image, alpha, image] { try animation.append(frame, duration: 0.1) }
        return [("still.gif", try GIF.encode(image)), ("animation-alpha.gif", try animation.finish())]
    }
}
