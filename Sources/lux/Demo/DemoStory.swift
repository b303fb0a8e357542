import Foundation
import Lux

/// The steps of `lux demo`, numbered as the contact sheet's sections (the DNG's development, 7, and the bracket's
/// merge, 4b, run beside the captures); each returns the ``DemoSection`` the contact sheet shows.
struct DemoStory {
    let folder: URL
    let size: DemoSize
    /// The context of what is described after the last step (the movies' captions, which render nothing; every
    /// image's preview is made beside the steps, on ``BackgroundWork``'s contexts).
    let context = RenderContext(options: RenderOptions(cacheIntermediates: false))

    /// Runs every step and returns the contact sheet (not yet written).
    func run() async throws -> ContactSheet {
        // The capture session, its camera and their buffers are released once the captures are done, before the
        // Live Photo edits: `capture()` owns them. The development and the HDR merge run meanwhile, and during the
        // edits if they have not finished (see `capture()`); so do the contact sheet's previews of the images, each
        // once its file is written.
        var (sections, subtitle, merge, background) = try await capture()
        let (edits, editPreviews) = try await editLivePhoto("05-live-photo.jpg", after: background.fusing.finished)
        let (fused, fusedPreviews) = try await background.fusing.value
        let (development, developedPreviews) = try await background.developing.value
        var described = try await background.bracketPreviews.value
        sections.insert(fused, at: merge)
        sections.append(development)
        sections.append(edits)
        // No file is in two of them.
        for previews in [fusedPreviews, developedPreviews] { described.merge(previews) { _, later in later } }
        for work in editPreviews { described.merge(try await work.value) { _, later in later } }
        for s in sections.indices {
            for i in sections[s].items.indices {
                if let item = described[sections[s].items[i].file] { sections[s].items[i] = item }
            }
        }

        // The movies' captions (every image's preview was made meanwhile).
        for s in sections.indices {
            for i in sections[s].items.indices where sections[s].items[i].preview == nil {
                try describe(&sections[s].items[i], context: context)
            }
        }
        var sizes: [String: Int] = [:]
        for item in sections.flatMap(\.items) {
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: folder.appendingPathComponent(item.file).path)
            sizes[item.file] = (attributes?[.size] as? NSNumber)?.intValue
        }
        return ContactSheet(title: "Lux demo", subtitle: subtitle, sections: sections, sizes: sizes)
    }

    /// The bracket's files, −2, 0 and +2 EV.
    static let bracketNames = ["03-bracket-minus-2ev.jpg", "03-bracket-0ev.jpg", "03-bracket-plus-2ev.jpg"]

    /// The contact sheet's previews of files, by file name.
    typealias Previews = [String: DemoSection.Item]

    /// Work done beside the captures: a section and the contact sheet's previews of files.
    typealias SectionWithPreviews = (section: DemoSection, previews: Previews)

    /// The work ``capture()`` starts beside the captures, in this order, one at a time: the DNG's development (with
    /// the previews of the JPEGs written before it), the bracket's previews, and the bracket's merge (with the
    /// previews of its own file, the low-light photo and the DNG).
    struct Background {
        var developing: BackgroundWork<SectionWithPreviews>
        var bracketPreviews: BackgroundWork<Previews>
        var fusing: BackgroundWork<SectionWithPreviews>
    }

    /// Runs the capture steps (1–6) on a session of their own, starting 7 and 4b beside them, and returns their
    /// sections, the sheet's subtitle, where the HDR merge's section goes (after the bracket's) and the work started
    /// beside them.
    ///
    /// That work is ``BackgroundWork``: it needs only files already written, and takes the processors while the
    /// camera waits for exposure and focus to follow a scene change (the development from the RAW capture on, the
    /// bracket's previews from the bracket on, the merge from the low-light photo on: the merge's buffers would not
    /// fit beside the low-light burst's). No step renders what an earlier one did: the contexts' cached intermediates
    /// are dropped after each, not kept up to a limit.
    func capture() async throws -> ([DemoSection], String, Int, Background) {
        var sections: [DemoSection] = []
        let portrait = try Scene.photographic(named: "photo-portrait")
        let studio = try await DemoSession.start(scene: portrait, sensor: size.sensor)
        let output = studio.photoOutput
        let camera = studio.camera
        let recorder = CaptureRecorder(output: output, folder: folder)
        let subtitle =
            "\(camera.localizedName), \(camera.activeFormat), \(camera.activeColorSpace.rawValue); "
            + "session preset photo with a microphone; Lux \(LuxCommand.configuration.version)"

        // 1. Scene monitoring and resource preparation (AVCam's set-up).
        var setup = DemoSection(
            title: "Session, scene monitoring and preparation",
            story: "An AVCam-like session: the back camera and a microphone feed a photo output on the photo preset; "
                + "the session chooses Display P3. The output monitors the scene for flash and stabilisation, and "
                + "allocates buffers for exactly the captures below before the first one.")
        let setupStart = ContinuousClock.now
        let monitor = SceneMonitorLog(output: output)
        var monitored = PhotoSettings()
        monitored.flashMode = .auto
        output.photoSettingsForSceneMonitoring = monitored
        setup.events.append(
            .init(
                milliseconds: milliseconds(since: setupStart), name: "photoSettingsForSceneMonitoring",
                detail: "JPEG, flash auto"))
        try output.setLivePhotoCaptureEnabled(true)
        output.isLivePhotoStabilizationEnabled = size.stabilizesLivePhotos
        let rawFormat = output.availableRawPhotoPixelFormatTypes[0]
        var raw = PhotoSettings(rawPixelFormat: rawFormat, processedFormat: .jpeg)
        let photoSize = output.standardPhotoDimensions
        let previewSide = min(512, photoSize.width, photoSize.height)
        raw.previewFormat = PreviewFormat(width: previewSide, height: previewSide)
        let bracket = PhotoSettings(bracket: [.auto(bias: -2), .auto(bias: 0), .auto(bias: 2)])
        var balanced = PhotoSettings()
        balanced.flashMode = .auto
        balanced.previewFormat = PreviewFormat(width: min(160, previewSide), height: min(160, previewSide))
        var lowLight = PhotoSettings()
        lowLight.qualityPrioritization = .quality
        var live = PhotoSettings()
        live.livePhotoMovieURL = folder.appendingPathComponent("05-live-photo.mov")
        live.livePhotoMovieMetadata = [LivePhotoMetadataItem(key: LivePhotoMetadataItem.author, value: "lux demo")]
        try await output.prepare([balanced, raw, bracket, lowLight, live])
        setup.events.append(
            .init(milliseconds: milliseconds(since: setupStart), name: "prepare", detail: "5 kinds of capture prepared")
        )
        setup.settings = [
            ("camera", camera.localizedName), ("format", "\(camera.activeFormat)"),
            ("colour space", camera.activeColorSpace.rawValue + " (chosen by the session)"),
            ("microphone", studio.session.microphone.map { "\(Int($0.sampleRate)) Hz" } ?? "none"),
            ("RAW formats", output.availableRawPhotoPixelFormatTypes.map { "\($0)" }.joined(separator: ", ")),
            ("flash modes", output.supportedFlashModes.map(\.rawValue).joined(separator: ", ")),
            ("max bracket", "\(output.maxBracketedCapturePhotoCount) photos"),
            ("max quality prioritisation", "\(output.maxPhotoQualityPrioritization)"),
            ("Live Photo capture", output.isLivePhotoCaptureEnabled ? "enabled" : "off"),
            ("Live Photo stabilisation", output.isLivePhotoStabilizationEnabled ? "on" : "off"),
            ("monitored settings", "JPEG, flash auto"),
        ]

        // 2. A balanced JPEG of the portrait.
        sections.append(setup)
        var section = try await recorder.capture(
            balanced, title: "Balanced JPEG",
            story:
                "The default request: JPEG, balanced quality prioritisation, flash auto (the scene is bright enough, "
                + "so it stays off), a 160-pixel preview."
        ) { _ in "01-balanced.jpg" }
        sections.append(section)

        // 3. RAW + JPEG.
        section = try await recorder.capture(
            raw, title: "RAW + JPEG",
            story: "One exposure delivered twice: the Bayer mosaic as a DNG (colour matrices, as-shot neutral, noise "
                + "profile, a preview embedded) and the processed JPEG."
        ) { photo in
            photo.isRawPhoto ? "02-raw.dng" : "02-raw.jpg"
        }
        sections.append(section)

        // 7. Develop the DNG, and the contact sheet's previews of the JPEGs written so far: meanwhile.
        let developing = background(
            describing: sections.flatMap(\.items).filter { $0.file.lowercased().hasSuffix(".jpg") }, after: nil
        ) { [self] context in
            try develop("02-raw.dng", into: "06-developed-p3.jpg", context: context)
        }

        // 4. An auto-exposure bracket of the HDR window (fused in the background after the low-light photo).
        camera.scene = try Scene.photographic(named: "photo-indoor")
        try await studio.settle()
        let names = Self.bracketNames
        section = try await recorder.capture(
            bracket, title: "Auto-exposure bracket −2/0/+2 EV",
            story: "A colour chart on a table under dim lamps in front of a window in daylight: three exposures two "
                + "stops apart, each developed on its own."
        ) {
            photo in names[min(max(photo.sequenceCount - 1, 0), 2)]
        }
        sections.append(section)
        let merge = sections.count
        // The bracket's previews: meanwhile, as exposure follows the light down for the next photo.
        let bracketJPEGs = section.items
        let bracketPreviews = BackgroundWork(after: developing.finished) { [self] in
            try previews(of: bracketJPEGs, context: BackgroundWork<Previews>.renderContext())
        }

        // 5. Low light at quality prioritisation: the monitored flags flip, the output merges a burst.
        let dimmed = ContinuousClock.now
        setup.events = (setup.events + monitor.events(from: setupStart, to: dimmed)).sorted {
            $0.milliseconds < $1.milliseconds
        }
        sections[0] = setup
        let dark = try Scene.photographic(named: "photo-low-light")
        camera.scene = dark
        try await studio.settle()
        section = try await recorder.capture(
            lowLight, title: "Low light, quality prioritisation",
            story: "The light drops: scene monitoring reports a flash scene and a stabilisation scene. With the flash "
                + "off and quality prioritisation, the output exposes a burst and merges it (LuxFusion).",
            start: dimmed
        ) { _ in
            "04-low-light-quality.jpg"
        }
        section.events =
            ([
                .init(
                    milliseconds: 0, name: "scene change",
                    detail: "portrait → rocket at dusk (\(Int(dark.light.illuminance)) lx)")
            ]
            + monitor.events(from: dimmed) + section.events).sorted { $0.milliseconds < $1.milliseconds }
        sections.append(section)

        // 4b. Merge the bracket, then make the previews of the low-light photo and the DNG: meanwhile.
        let raws = sections.flatMap(\.items).filter { $0.file.lowercased().hasSuffix(".dng") }
        let fusing = background(describing: section.items + raws, after: bracketPreviews.finished) {
            [self] context in
            try fuse(Self.bracketNames, into: "03-hdr-fused.jpg", context: context)
        }

        // 6. A Live Photo of the portrait, once exposure has followed the light back up. Only the Live Photo is
        // left to capture: preparing for it alone frees the buffers of the longer bursts (AVCam's reclamation).
        camera.scene = portrait
        let reclaim = ContinuousClock.now
        try await output.prepare([live])
        try await studio.settle()
        output.photoSettingsForSceneMonitoring = nil
        section = try await recorder.capture(
            live, title: "Live Photo",
            story: "A still and a movie of 1.5 s either side, with the microphone's sound, tied by a content "
                + "identifier (Apple's maker note in the JPEG, QuickTime metadata in the movie). Before it, the "
                + "output is prepared for the Live Photo alone, which reclaims what the bursts used.",
            start: reclaim
        ) { _ in
            "05-live-photo.jpg"
        }
        section.events.insert(
            .init(milliseconds: 0, name: "prepare", detail: "Live Photo only: the bursts' buffers reclaimed"), at: 0
        )
        sections.append(section)
        await studio.session.stopRunning()
        return (
            sections, subtitle, merge,
            Background(developing: developing, bracketPreviews: bracketPreviews, fusing: fusing)
        )
    }

    /// Starts `step` as ``BackgroundWork`` once `previous` has finished, then makes the previews of its files and of
    /// `earlier` (files written before it).
    func background(
        describing earlier: [DemoSection.Item], after previous: (@Sendable () async -> Void)?,
        _ step: @escaping @Sendable (RenderContext) throws -> DemoSection
    ) -> BackgroundWork<SectionWithPreviews> {
        BackgroundWork(after: previous) { [self] in
            let context = BackgroundWork<SectionWithPreviews>.renderContext()
            let section = try step(context)
            context.clearCaches()
            return (section, try previews(of: earlier + section.items, context: context))
        }
    }

    /// The previews of `items`, made one after another with `context` (a low-priority one in ``BackgroundWork``: one
    /// worker thread, the work's own).
    func previews(of items: [DemoSection.Item], context: RenderContext) throws -> Previews {
        var described: Previews = [:]
        for item in items {
            var preview = item
            try describe(&preview, context: context)
            context.clearCaches()
            described[item.file] = preview
        }
        return described
    }

    /// Exposure fusion of the bracket, in Display P3, with the 0 EV frame's metadata.
    func fuse(_ brackets: [String], into name: String, context: RenderContext) throws -> DemoSection {
        var section = DemoSection(
            title: "HDR merge (exposure fusion)",
            story: "The three brackets blended by Mertens et al.'s weights (contrast, saturation, well-exposedness) "
                + "in a Laplacian pyramid: the window and the room both keep their detail.")
        let start = ContinuousClock.now
        let files = try brackets.map { try ImageFile.read(url: folder.appendingPathComponent($0)) }
        section.events.append(
            .init(milliseconds: milliseconds(since: start), name: "decoded", detail: brackets.joined(separator: ", ")))
        let space = files[0].pixels.colorSpace ?? .displayP3
        let fused = try ExposureFusion(settings: .init(threads: context.threadCount)).fuse(
            files.map { Image(buffer: $0.pixels) }, colorSpace: space)
        var metadata = ImageMetadata(exif: files[1].metadata.exif)
        metadata.exif.software = "Lux (LuxFusion exposure fusion)"
        try context.write(
            fused, to: folder.appendingPathComponent(name), format: .jpeg, colorSpace: space, metadata: metadata,
            options: EncodingOptions(quality: 0.9))
        section.events.append(.init(milliseconds: milliseconds(since: start), name: "fused and written", detail: name))
        let s = ExposureFusion.Settings()
        section.settings = [
            ("inputs", brackets.joined(separator: ", ")),
            ("weights", "contrast \(s.contrastWeight), saturation \(s.saturationWeight), exposure \(s.exposureWeight)"),
            ("well-exposed", "\(s.exposureMean) ± \(s.exposureSigma)"),
            ("colour space", space.name),
        ]
        section.items = [DemoSection.Item(file: name, caption: "")]
        return section
    }

    /// Develops the DNG with adjusted exposure, white balance and noise reduction into a Display P3 JPEG.
    func develop(_ dng: String, into name: String, context: RenderContext) throws -> DemoSection {
        var section = DemoSection(
            title: "RAW development",
            story: "The DNG developed by LuxRAW (the CIRAWFilter role) with half a stop more exposure, a warmer white "
                + "balance and stronger luminance noise reduction, rendered a strip at a time into Display P3.")
        let start = ContinuousClock.now
        var developer = try RAWDeveloper(url: folder.appendingPathComponent(dng))
        let asShot = developer.asShotWhite
        developer.exposure = 0.5
        developer.neutralTemperature = min(asShot.temperature + 1000, 50_000)
        developer.luminanceNoiseReductionAmount = 0.6
        let image = try developer.outputImage
        let metadata = developer.outputMetadata(for: image)
        // As `lux develop` renders: the raw pipeline's tiles and strips, no cached intermediates (each is read once),
        // on as many threads as `context`, at its priority.
        var options = RAWDeveloper.renderOptions(threadCount: context.threadCount)
        options.lowPriority = context.options.lowPriority
        try RenderContext(options: options).write(
            image, to: folder.appendingPathComponent(name), format: .jpeg, colorSpace: .displayP3, metadata: metadata,
            options: EncodingOptions(quality: 0.9), rowsPerStrip: RAWDeveloper.renderTileSize)
        section.events.append(
            .init(milliseconds: milliseconds(since: start), name: "developed and written", detail: name))
        section.settings = [
            ("input", dng), ("pipeline", "LuxRAW \(developer.version), \(developer.demosaicMethod) demosaic"),
            ("exposure", "+0.5 EV"),
            (
                "temperature",
                String(format: "%.0f K as shot → %.0f K", asShot.temperature, developer.neutralTemperature)
            ),
            ("tint", String(format: "%.1f", developer.neutralTint)),
            ("luminance noise reduction", "0.6"),
            (
                "colour noise reduction",
                String(format: "%.2f (from the noise profile)", developer.colorNoiseReductionAmount)
            ),
            ("output", "Display P3 JPEG, 8-bit"),
        ]
        section.items = [DemoSection.Item(file: name, caption: "")]
        return section
    }

    /// Saves the Live Photo edited by each of the seed's frame processors, and makes the previews of its still and of
    /// each edited still as ``BackgroundWork`` meanwhile, one after another from when `previous` has finished: an edit
    /// leaves part of the processors idle (a movie's frames are decoded, processed and encoded in a pipeline whose
    /// stages wait for each other), and the contact sheet's previews would otherwise be made after the last edit.
    func editLivePhoto(_ still: String, after previous: @escaping @Sendable () async -> Void) async throws -> (
        DemoSection, [BackgroundWork<Previews>]
    ) {
        var previews: [BackgroundWork<Previews>] = []
        func describeMeanwhile(_ file: String) {
            let item = DemoSection.Item(file: file, caption: "")
            previews.append(
                BackgroundWork(after: previews.last?.finished ?? previous) { [self] in
                    try self.previews(of: [item], context: BackgroundWork<Previews>.renderContext())
                })
        }
        describeMeanwhile(still)
        var section = DemoSection(
            title: "Live Photo edits",
            story: "The Live Photo editing session's frame processors (LuxLive): each runs on the still and on every "
                + "movie frame; each edited pair gets a new content identifier.")
        let original = try LivePhoto(pairing: folder.appendingPathComponent(still))
        let examples = SeedFrameProcessors.all(
            photoTime: original.photoTime.seconds, duration: original.duration.seconds)
        let start = ContinuousClock.now
        for example in examples {
            var editor = try LivePhotoEditingContext(livePhoto: original)
            editor.frameProcessor = example.processor
            let edited = try await editor.save(
                to: LivePhotoEditingOutput(directory: folder, baseName: "07-live-\(example.name)"))
            section.events.append(
                .init(
                    milliseconds: milliseconds(since: start), name: "save",
                    detail:
                        "\(example.name): \(edited.photoURL.lastPathComponent) + \(edited.movieURL.lastPathComponent)"))
            section.settings.append((example.name, example.summary))
            section.items.append(.init(file: edited.photoURL.lastPathComponent, caption: ""))
            section.items.append(.init(file: edited.movieURL.lastPathComponent, caption: ""))
            describeMeanwhile(edited.photoURL.lastPathComponent)
        }
        return (section, previews)
    }

    /// Fills in an item's caption and preview from its file.
    func describe(_ item: inout DemoSection.Item, context: RenderContext) throws {
        let url = folder.appendingPathComponent(item.file)
        switch url.pathExtension.lowercased() {
        case "dng":
            let preview = try DemoPreview.ofRAW(item.file, in: folder, side: size.thumbnailSide, context: context)
            item.preview = preview
            item.caption =
                "\(preview.width)×\(preview.height) RAW (DNG), preview developed in \(preview.colorSpace.name)"
        case "mov":
            let pair = try LivePhoto(pairing: url)
            item.caption = String(
                format: "%.2f s movie, still at %.2f s; pairs with %@ (content identifier %@)",
                pair.duration.seconds, pair.photoTime.seconds, pair.photoURL.lastPathComponent,
                String(pair.contentIdentifier.prefix(8)) + "…")
        default:
            let preview = try DemoPreview.ofImage(item.file, in: folder, side: size.thumbnailSide, context: context)
            item.preview = preview
            item.caption = "\(preview.width)×\(preview.height) JPEG, \(preview.colorSpace.name)"
        }
    }
}
