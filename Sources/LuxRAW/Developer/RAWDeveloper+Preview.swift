public import LuxPixels
public import LuxRender
import RealModule
import Synchronization

extension RAWDeveloper {
    /// The developed image for an interactive preview, reusing `draft`'s pixels for the stages that the last change
    /// of the adjustments did not touch.
    ///
    /// The stages up to the camera-to-BT.2020 transform (decode, white balance, demosaic or binning, highlight
    /// recovery, moiré and noise reduction, lens corrections, the gain table map) are rendered once with `context`
    /// at the preview's size (cropped and scaled by ``Adjustments/scaleFactor``, not yet oriented) and kept in
    /// `draft`. While white balance, noise reduction, the crop and the scale stay the same, a change of exposure,
    /// saturation, vibrance, boost, shadow boost, contrast, gamut mapping, sharpening or orientation re-runs only the
    /// stages after them, on preview-sized pixels: this is what keeps a slider interactive on a 12-megapixel file.
    ///
    /// ``outputImage`` scales last; a preview scales before the tone and look stages (sharpening's radius scales
    /// with it), so the two agree closely but not bit for bit. Use one draft per raw image.
    ///
    /// - Throws: what ``outputImage`` throws, and ``RAWError/rendering(_:)`` when the early stages fail to render.
    public func previewImage(draft: PreviewDraft, context: RenderContext) throws(RAWError) -> Image {
        try validate()
        let a = adjustments
        let key = a.draftKey
        let base: Image
        if let kept = draft.image(for: key) {
            base = kept
        } else {
            let scene = scaled(try sceneImage(neutral: try neutral(), exposure: 0))
            do {
                base = Image(buffer: try context.createBuffer(scene, format: .rgbaFloat, colorSpace: nil))
            } catch {
                throw .rendering(error)
            }
            draft.keep(base, for: key)
        }
        var image = base
        if a.exposure != 0 { image = CameraColorTransform(matrix: .identity).apply(to: image, gain: .exp2(a.exposure)) }
        // outputImage sharpens at the binned size (radius / binning); here the pixels are already scaled from it.
        let scale = scaledSize.width / cropRectangle.width
        image = finished(image, sharpenRadius: a.sharpnessRadius / Double(binning) * scale)
        return oriented(image).matchedToWorkingSpace(from: CameraColorTransform.workingSpace)
    }

    /// The rendered early stages of one raw image's previews, kept between adjustments.
    ///
    /// See ``RAWDeveloper/previewImage(draft:context:)``. It holds one preview-sized float image at a time.
    public final class PreviewDraft: Sendable {
        private let kept = Mutex<(key: Adjustments, image: Image)?>(nil)

        /// An empty draft.
        public init() {}

        func image(for key: Adjustments) -> Image? {
            kept.withLock { $0?.key == key ? $0?.image : nil }
        }

        func keep(_ image: Image, for key: Adjustments) {
            kept.withLock { $0 = (key, image) }
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
}
