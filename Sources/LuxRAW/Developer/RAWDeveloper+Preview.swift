public import LuxPixels
public import LuxRender
import RealModule
import Synchronization

extension RAWDeveloper {
    /// The developed image for an interactive preview, reusing `draft`'s pixels for the stages that the last change
    /// of the adjustments did not touch.
    ///
    /// The draft keeps two preview-sized images (cropped and scaled by ``Adjustments/scaleFactor``, not yet
    /// oriented), each rendered once with `context`:
    /// - the sensor stages (decode, demosaic or binning, highlight recovery, moiré reduction, lens corrections) in
    ///   white-balanced camera RGB, made again only when a control of those stages, the crop or the scale changes;
    /// - from it, the white balance brought to the current one (a gain per channel), noise reduction at the preview's
    ///   size, highlight recovery and the camera-to-BT.2020 transform with the gain table map, made again when the
    ///   white balance or noise reduction changes too.
    ///
    /// A change of exposure, saturation, vibrance, boost, shadow boost, contrast, gamut mapping, sharpening or
    /// orientation re-runs only the stages after them, on preview-sized pixels; one of white balance or noise
    /// reduction re-runs those few stages first: this is what keeps every slider interactive on a 12-megapixel file.
    ///
    /// ``outputImage`` scales last; a preview scales before noise reduction (its noise model follows the scale), the
    /// tone and look stages (sharpening's radius scales with it), and rebuilds clipped highlights with the white
    /// balance its sensor image was made at, so the two agree closely but not bit for bit. Use one draft per raw
    /// image.
    ///
    /// - Throws: what ``outputImage`` throws, and ``RAWError/rendering(_:)`` when the early stages fail to render.
    public func previewImage(draft: PreviewDraft, context: RenderContext) throws(RAWError) -> Image {
        try validate()
        let a = adjustments
        let key = a.draftKey
        let base: Image
        if let kept = draft.scene.value(for: key) {
            base = kept
        } else {
            base = try Self.rendered(try previewScene(draft: draft, context: context), context: context)
            draft.scene.keep(base, for: key)
        }
        var image = base
        if a.exposure != 0 { image = CameraColorTransform(matrix: .identity).apply(to: image, gain: .exp2(a.exposure)) }
        // outputImage sharpens at the binned size (radius / binning); here the pixels are already scaled from it.
        let scale = scaledSize.width / cropRectangle.width
        image = finished(image, sharpenRadius: a.sharpnessRadius / Double(binning) * scale)
        return oriented(image).matchedToWorkingSpace(from: CameraColorTransform.workingSpace)
    }

    /// The scene stages of a preview at exposure 0, from the draft's sensor stages (made first when missing).
    func previewScene(draft: PreviewDraft, context: RenderContext) throws(RAWError) -> Image {
        let neutral = try neutral()
        let wb = Self.mosaicGains(neutral: neutral)
        let key = adjustments.sensorDraftKey
        var image: Image
        if let kept = draft.sensor.value(for: key) {
            image = kept.image
            if kept.gains != wb {
                // Demosaicing and binning are linear per channel: a gain now is the gain before them.
                let ratio = SIMD3<Double>(wb / kept.gains)
                image = CameraColorTransform(matrix: .diagonal(ratio)).apply(to: image)
            }
        } else {
            image = try Self.rendered(scaled(try sensorStages(gains: wb).image), context: context)
            draft.sensor.keep((image, wb), for: key)
        }
        // Each preview pixel averages the binned pixels the scale reduces to it: their noise variance divides by that
        // area too.
        let reduction = cropRectangle.width / scaledSize.width
        let averaged = Self.photositesPerColor(binning: binning, layout: rawImage.properties) * reduction * reduction
        return try sceneStages(image, neutral: neutral, gains: wb, exposure: 0, averaged: averaged)
    }

    /// `image` rendered into a float buffer (its pixels computed now, once).
    static func rendered(_ image: Image, context: RenderContext) throws(RAWError) -> Image {
        do {
            return Image(buffer: try context.createBuffer(image, format: .rgbaFloat, colorSpace: nil))
        } catch {
            throw .rendering(error)
        }
    }

    /// The rendered early stages of one raw image's previews, kept between adjustments.
    ///
    /// See ``RAWDeveloper/previewImage(draft:context:)``. It holds two preview-sized float images at a time.
    public final class PreviewDraft: Sendable {
        /// The sensor stages, with the mosaic gains they were made at.
        let sensor = Kept<(image: Image, gains: SIMD3<Float>)>()
        /// The scene stages at exposure 0.
        let scene = Kept<Image>()

        /// An empty draft.
        public init() {}

        /// One value kept under the adjustments it was made for.
        final class Kept<Value: Sendable>: Sendable {
            private let kept = Mutex<(key: Adjustments, value: Value)?>(nil)

            func value(for key: Adjustments) -> Value? {
                kept.withLock { $0?.key == key ? $0?.value : nil }
            }

            func keep(_ value: Value, for key: Adjustments) {
                kept.withLock { $0 = (key, value) }
            }
        }
    }
}

extension RAWDeveloper.Adjustments {
    /// These adjustments with every control that ``RAWDeveloper/previewImage(draft:context:)`` applies after the
    /// draft set to its neutral value: two adjustments share a draft when their keys are equal.
    var draftKey: Self {
        var key = self
        key.exposure = 0
        key.saturationAmount = 0
        key.vibranceAmount = 0
        key.boostAmount = 0
        key.shadowBoostAmount = 0
        key.contrastAmount = 0
        key.isGamutMappingEnabled = false
        key.sharpnessAmount = 0
        key.sharpnessRadius = 0
        key.orientation = .up
        return key
    }

    /// ``draftKey`` with white balance and noise reduction neutral too: the key of the draft's sensor stages.
    var sensorDraftKey: Self {
        var key = draftKey
        (key.neutralTemperature, key.neutralTint) = (0, 0)
        (key.luminanceNoiseReductionAmount, key.colorNoiseReductionAmount) = (0, 0)
        (key.noiseReductionDetailAmount, key.noiseReductionSharpnessAmount) = (0, 0)
        key.noiseReductionContrastAmount = 0
        return key
    }
}
