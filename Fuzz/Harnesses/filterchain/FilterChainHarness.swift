import FuzzSupport
import LuxFilters
import LuxPixels
import LuxRender

/// Filter-chain text (`lux filter --chain`): parsing, value conversion against the built-in catalogue,
/// and a render of a 4 × 4 region of the result, single-threaded.
func fuzzFilterChain(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: Fuzz.bytes(data, count), as: UTF8.self)
    guard let chain = try? FilterChain(parsing: text) else { return 0 }
    _ = chain.description
    struct NoImages: Error {}
    guard
        let image = try? chain.apply(
            to: Fuzz.renderInput, registry: .builtIn, loadImage: { _ in throw NoImages() })
    else { return 0 }
    Fuzz.renderCorner(image)
    return 0
}

@_cdecl("fuzz_filterchain_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzFilterChain) {
        var seeds: [(String, [UInt8])] = [
            ("sepia-blur.txt", Array("SepiaTone intensity=0.8 | GaussianBlur radius=4".utf8)),
            ("lanczos.txt", Array("LanczosScaleTransform scale=0.25 aspectRatio=1.5".utf8)),
            ("exposure.txt", Array("ExposureAdjust ev=-1 | Crop rectangle=0,0,8,8".utf8)),
            (
                "gradient.txt",
                Array("RadialGradient center=2,2 radius0=1 radius1=5 color0=#ff000080 color1='0.1, 0.2, 0.3'".utf8)
            ),
        ]
        for descriptor in FilterRegistry.builtIn.descriptors {
            let args = descriptor.parameters.compactMap { p -> String? in
                switch p.defaultValue {
                case .number(let d): return "\(p.name)=\(d)"
                case .vector(let v): return "\(p.name)=" + v.map { "\($0)" }.joined(separator: ",")
                case .boolean(let b): return "\(p.name)=\(b)"
                case .color: return "\(p.name)=gray"
                default: return nil
                }
            }
            seeds.append(("\(descriptor.name).txt", Array(([descriptor.name] + args).joined(separator: " ").utf8)))
        }
        return seeds
    }
}
