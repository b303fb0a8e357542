import FoundationEssentials
import FuzzSupport
import LuxFilters
import LuxFusion
import LuxLive
import LuxPixels
import LuxRender

/// Live Photo adjustment data: the JSON recipe Lux stores as `AdjustmentData` (filter chains, crop, aspect
/// ratio, trim range, volume, orientation, auto-trim and stabiliser settings), written back again, turned into
/// a frame processor and run on a 16 × 16 photo and video frame (4 × 4 region, single-threaded).
func fuzzAdjustments(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzz.bytes(data, count)
    let stored = AdjustmentData(
        formatIdentifier: LivePhotoAdjustments.formatIdentifier, formatVersion: LivePhotoAdjustments.formatVersion,
        data: bytes)
    guard let recipe = try? LivePhotoAdjustments(adjustmentData: stored) else { return 0 }
    // What reads must write, and read back to the same recipe.
    guard let again = try? recipe.adjustmentData(), (try? LivePhotoAdjustments(adjustmentData: again)) == recipe else {
        fatalError("the recipe \(recipe) does not survive writing and reading again")
    }
    guard let process = try? recipe.makeFrameProcessor() else { return 0 }
    for type in [LivePhotoFrame.FrameType.photo, .video] {
        let frame = LivePhotoFrame(image: Fuzz.renderInput, type: type, time: .zero, renderScale: 0.5)
        if let image = try? process(frame) { Fuzz.renderCorner(image) }
    }
    return 0
}

@_cdecl("fuzz_adjustments_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, input: fuzzAdjustments) {
        let recipes = [
            LivePhotoAdjustments(),
            LivePhotoAdjustments(
                filterChain: "SepiaTone intensity=0.8 | GaussianBlur radius=4", photoFilterChain: "ExposureAdjust ev=1",
                crop: Rect(x: 0.1, y: 0.2, width: 0.5, height: 0.6), aspectRatio: 1.5,
                timeRange: MediaTime(value: 1, timescale: 30)..<MediaTime(value: 2, timescale: 3), audioVolume: 0.5,
                orientation: .right),
            LivePhotoAdjustments(
                filterChain: "Crop rectangle=0,0,8,8", autoTrim: LivePhotoAutoTrimmer(),
                stabilization: LivePhotoStabilizer()),
        ]
        return try recipes.enumerated().map { (i, r) in ("recipe-\(i).json", try r.adjustmentData().data) }
    }
}
