import Foundation
import Lux
import Testing

/// The snippets of Sources/Lux/Documentation.docc/EditingLivePhotos.md, in order: a real iPhone pair for reading,
/// a Live Photo written by LuxLive for editing.
@Suite struct EditingLivePhotosSnippets {
    @Test func theWholeArticle() async throws {
        let folder = try temporaryFolder()
        try copy("livephoto/iphone6s_livephoto_train.jpg", into: folder, as: "IMG_0001.JPG")
        try copy("livephoto/iphone6s_livephoto_train.mov", into: folder, as: "IMG_0001.MOV")
        let live = try makeLivePhoto(in: folder)

        let iPhone = try LivePhoto(pairing: folder.appending(path: "IMG_0001.JPG"))  // IMG_0001.MOV beside it
        print(iPhone.contentIdentifier, iPhone.photoTime.seconds, iPhone.duration.seconds)

        // exiftool on the iPhone movie: Duration 1.23 s (a trimmed Live Photo).
        #expect(!iPhone.contentIdentifier.isEmpty)
        #expect(abs(iPhone.duration.seconds - 1.23) < 0.01)
        #expect(iPhone.photoTime.seconds >= 0 && iPhone.photoTime.seconds <= iPhone.duration.seconds)
        #expect(try LivePhotoEditingContext(livePhoto: iPhone).canRenderMovie)  // H.264, decoded by FFmpeg

        var context = try LivePhotoEditingContext(livePhoto: live)
        let tP = context.photoTime.seconds
        let duration = context.duration.seconds
        context.frameProcessor = { frame in
            let e = frame.image.extent
            let side = min(e.width, e.height)
            let rect = Rect(x: (e.width - side) / 2, y: (e.height - side) / 2, width: side, height: side)
            let tF = frame.time.seconds
            let dt = tF < tP ? (tF - tP) / tP : (tF - tP) / (duration - tP)  // −1 … 0 … +1
            return frame.image.cropped(
                to: Rect(x: rect.minX * (1 + dt), y: rect.minY * (1 + dt), width: side, height: side))
        }
        context.audioVolume = 0.5
        let preview = try await context.prepareForPlayback(targetSize: Size(width: 480, height: 360))
        let edited = try await context.save(to: LivePhotoEditingOutput(directory: folder, baseName: "IMG_E0001"))

        #expect(edited.contentIdentifier != live.contentIdentifier)
        #expect(try ImageFile.info(url: edited.photoURL).width == 300)  // the 400 × 300 still, cropped square
        #expect(try LivePhoto(pairing: edited.photoURL).contentIdentifier == edited.contentIdentifier)
        #expect(try ImageFile.info(url: preview.photoURL).width <= 480)

        let logo = Image(color: Color(gray: 0.3, colorSpace: .extendedLinearSRGB))
            .cropped(to: Rect(x: 20, y: 20, width: 60, height: 40))
        var styled = try LivePhotoEditingContext(livePhoto: live)
        styled.frameProcessor = { frame in
            var image = try frame.image.applyingFilter(
                "LineScreen",
                parameters: [
                    "angle": .number(3 * Double.pi / 4), "width": .number(6 * frame.renderScale),
                    "center": .vector([frame.image.extent.midX, frame.image.extent.midY]),
                ])
            if frame.type == .photo {  // the watermark goes on the still only
                image = logo.composited(over: image)
            }
            return image
        }
        let screened = try await styled.save(to: LivePhotoEditingOutput(directory: folder, baseName: "IMG_E0002"))

        #expect(try ImageFile.info(url: screened.photoURL).width == 400)

        let recipe = LivePhotoAdjustments(filterChain: "SepiaTone intensity=0.6", audioVolume: 0)
        let output = LivePhotoEditingOutput(
            directory: folder, baseName: "IMG_E0003", adjustmentData: try recipe.adjustmentData())
        let sepia = try await LivePhotoEditingContext(livePhoto: live, adjustments: recipe).save(to: output)
        let record = try LivePhotoEditRecord(contentsOf: output.adjustmentDataURL)
        let again = try LivePhotoAdjustments(adjustmentData: record.adjustmentData)  // the same recipe
        let original = try record.revert(removingSidecar: output.adjustmentDataURL)  // deletes the edited pair

        #expect(again.filterChain == "SepiaTone intensity=0.6")
        #expect(original.contentIdentifier == live.contentIdentifier)
        #expect(!FileManager.default.fileExists(atPath: sepia.photoURL.path))
        #expect(!FileManager.default.fileExists(atPath: output.adjustmentDataURL.path))
    }
}
