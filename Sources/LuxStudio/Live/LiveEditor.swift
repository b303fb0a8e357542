import Foundation
import LuxCodecs
import LuxLive
import LuxPixels

/// The Live Photo editor behind the studio: a pair's timeline for the player, playback previews of an edit and the
/// edited pair saved as a new one, all through LuxLive's ``LivePhotoEditingContext``.
///
/// Previews are rendered by ``LivePhotoEditingContext/prepareForPlayback(targetSize:in:)`` into a private
/// temporary folder (the last few are kept, each under a random identifier) that ``removePreviews()`` deletes when
/// the studio stops. Saving writes the still, the movie and the `.luxedit` recipe into the capture folder under a
/// stem no file there begins with, so nothing is replaced; LuxLive writes temporary files and renames them, so a
/// failure leaves no partial file.
actor LiveEditor {
    /// The most previews kept at once.
    static let capacity = 4

    /// Where previews are rendered (created on first use).
    let previewFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lux-studio-live-\(UUID().uuidString)")
    private var previews: [String] = []

    /// The Live Photo whose still is `url`: its movie beside it (same base name), inside the gallery folders.
    ///
    /// A pair without content identifiers (two files of one base name, as uploaded) is accepted: the edited pair
    /// gets a new identifier anyway.
    static func livePhoto(_ url: URL, gallery: GalleryFolders) throws(StudioError) -> LivePhoto {
        guard !LivePhoto.isMovie(url), let movie = LivePhoto.partnerURL(of: url), gallery.contains(movie) else {
            throw .malformedMessage("\(url.lastPathComponent): not the still of a Live Photo (no movie beside it)")
        }
        do { return try LivePhoto(photoURL: url, movieURL: movie, requiresIdentifier: false) } catch {
            throw .malformedMessage("\(error)")
        }
    }

    /// What the editor's player needs, as JSON: the photo time, the duration and frame times (seconds), the sizes,
    /// whether the movie has sound and whether it can be re-rendered (and if not, why).
    static func timeline(of live: LivePhoto) throws(StudioError) -> String {
        let context: LivePhotoEditingContext
        do { context = try LivePhotoEditingContext(livePhoto: live) } catch { throw .malformedMessage("\(error)") }
        let movie = try? QuickTimeMovie(contentsOf: live.movieURL)
        var object: [String: Any] = [
            "photoTime": live.photoTime.seconds, "duration": live.duration.seconds,
            "frameTimes": context.videoFrameTimes.map(\.seconds), "photoWidth": context.photoWidth,
            "photoHeight": context.photoHeight, "videoWidth": context.videoWidth, "videoHeight": context.videoHeight,
            "hasAudio": movie?.audioTrack != nil, "canRenderMovie": context.canRenderMovie,
            "contentIdentifier": live.contentIdentifier,
        ]
        if let problem = context.movieProblem { object["problem"] = "\(problem)" }
        return StudioCamera.json(object)
    }

    /// Renders a playback preview of `edit` no larger than `side` × `side` and returns its identifier; its files are
    /// ``previewFile(_:part:)``.
    func preview(of live: LivePhoto, edit: LiveEdit, side: Int, gallery: GalleryFolders) async throws(StudioError)
        -> String
    {
        let context = try Self.context(live, edit, gallery: gallery)
        let id = UUID().uuidString
        let folder = previewFolder.appendingPathComponent(id)
        do {
            _ = try await context.prepareForPlayback(
                targetSize: Size(width: Double(side), height: Double(side)), in: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw .malformedMessage("\(error)")
        }
        previews.append(id)
        if previews.count > Self.capacity {
            try? FileManager.default.removeItem(at: previewFolder.appendingPathComponent(previews.removeFirst()))
        }
        return id
    }

    /// A preview's still (`still`) or movie (`movie`), or `nil` for an identifier that is not a kept preview.
    func previewFile(_ id: String, part: String) -> URL? {
        guard previews.contains(id) else { return nil }
        let folder = previewFolder.appendingPathComponent(id)
        switch part {
        case "still": return folder.appendingPathComponent("preview.JPG")
        case "movie": return folder.appendingPathComponent("preview.MOV")
        default: return nil
        }
    }

    /// Saves the edited pair into `folder` as `<stem>_edit.JPG` and `.MOV` (or the first free `<stem>_edit-2`, ...)
    /// with its `.luxedit` recipe; returns the still and the movie.
    func save(_ live: LivePhoto, edit: LiveEdit, to folder: URL, gallery: GalleryFolders) async throws(StudioError)
        -> (still: URL, movie: URL)
    {
        let recipe = try edit.adjustments(gallery: gallery)
        let context = try Self.context(live, recipe)
        let stem = FolderWriting.freeStem(live.photoURL.deletingPathExtension().lastPathComponent + "_edit", in: folder)
        do {
            let output = LivePhotoEditingOutput(
                directory: folder, baseName: stem, adjustmentData: try recipe.adjustmentData())
            let saved = try await context.save(to: output)
            return (saved.photoURL, saved.movieURL)
        } catch {
            throw .cannotSave(name: stem + ".JPG", reason: "\(error)")
        }
    }

    /// Deletes every preview (the studio is stopping).
    func removePreviews() {
        previews = []
        try? FileManager.default.removeItem(at: previewFolder)
    }

    /// The editing context of `live` under `edit`'s recipe (a watermark's file read from `gallery`).
    static func context(_ live: LivePhoto, _ edit: LiveEdit, gallery: GalleryFolders) throws(StudioError)
        -> LivePhotoEditingContext
    {
        try context(live, try edit.adjustments(gallery: gallery))
    }

    /// The editing context of `live` under `recipe`.
    static func context(_ live: LivePhoto, _ recipe: LivePhotoAdjustments) throws(StudioError)
        -> LivePhotoEditingContext
    {
        do { return try LivePhotoEditingContext(livePhoto: live, adjustments: recipe) } catch {
            throw .malformedMessage("\(error)")
        }
    }
}
