import Foundation
import HummingbirdTesting
import LuxCapture
import LuxCodecs
import LuxLive
import LuxStudio
import LuxTestSupport
import Testing

/// The studio end to end in a real headless Chromium, through chromedriver on loopback.
///
/// Screenshots of each panel are kept in `.build/artefacts/studio/` for people to look at.
@Suite(.serialized) struct StudioBrowserTests {
    /// The mean of an `<img>`'s pixels (0...255), drawn into a canvas in the page.
    static let meanScript = """
        const img = document.querySelector(arguments[0]);
        if (!img || !img.complete || img.naturalWidth === 0) return -1;
        const c = document.createElement("canvas");
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        const g = c.getContext("2d");
        g.drawImage(img, 0, 0);
        const d = g.getImageData(0, 0, c.width, c.height).data;
        let sum = 0;
        for (let i = 0; i < d.length; i += 4) sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
        return sum / (d.length / 4);
        """

    static let artefacts = URL(fileURLWithPath: TestData.packageRoot + "/.build/artefacts/studio")

    func save(_ png: Data, _ name: String) throws {
        try FileManager.default.createDirectory(at: Self.artefacts, withIntermediateDirectories: true)
        try png.write(to: Self.artefacts.appendingPathComponent(name))
    }

    @Test(
        "exposure slider brightens the viewfinder, RAW + JPEG appears in the gallery, a RAW slider changes the preview",
        // Long: ~50 s alone, and in the whole suite's parallel load the viewfinder's first frames missed their 30 s.
        .tags(.long), .longRunning, .needs("chromium", "chromedriver"))
    func endToEnd() async throws {
        let folder = try ExternalTool.temporaryFolder("lux-studio-browser")
        defer { try? FileManager.default.removeItem(at: folder) }
        var sensor = SensorModel.phone12MP
        sensor.pixelPitch = sensor.sensorWidth / 1008
        sensor.width = 1008
        sensor.height = 756
        let studio = try Studio(
            configuration: StudioConfiguration(port: 0, captureFolder: folder, scene: "gray-card", sensor: sensor))
        try await studio.application().test(.live) { client in
            let port = try #require(client.port)
            let browser = try await WebDriver()
            do {
                try await browser.open("http://127.0.0.1:\(port)/")
                try await browser.wait("viewfinder frames", until: "return (window.luxStudio?.camera.frames ?? 0) > 3")

                // Exposure: bias -2 EV, then +2 EV, each given time for auto exposure to settle.
                var means: [Double] = []
                for bias in [-2, 2] {
                    _ = try await browser.run(
                        """
                        const s = document.querySelector("#bias"); s.value = arguments[0];
                        s.dispatchEvent(new Event("input"));
                        """, [bias])
                    try await browser.wait(
                        "exposure to settle at \(bias) EV",
                        until: """
                            const s = window.luxStudio.camera.status;
                            return s && s.bias === \(bias) && Math.abs(s.offset) < 0.2 && !s.isAdjustingExposure;
                            """)
                    let frames = try await browser.run("return window.luxStudio.camera.frames") as? Int ?? 0
                    try await browser.wait("new frames", until: "return window.luxStudio.camera.frames > \(frames + 3)")
                    means.append(try await browser.run(Self.meanScript, ["#viewfinder"]) as? Double ?? -1)
                }
                #expect(means[1] > means[0] + 30, "viewfinder means at -2 and +2 EV: \(means)")
                try save(try await browser.screenshot(), "camera.png")

                // RAW + JPEG: both files appear in the gallery.
                _ = try await browser.run(
                    """
                    document.querySelector("#captureKind").value = "rawPlusJPEG";
                    document.querySelector("#prioritization").value = "speed";
                    document.querySelector("#shutter").click();
                    """)
                try await browser.wait(
                    "the capture", seconds: 60,
                    until: "return document.querySelector('#timeline').textContent.includes('request')")
                _ = try await browser.run("document.querySelector('nav button[data-panel=gallery]').click()")
                try await browser.wait(
                    "two gallery items", until: "return document.querySelectorAll('#items .item').length === 2")
                let names =
                    try await browser.run(
                        "return [...document.querySelectorAll('#items .item')].map(e => e.dataset.name)") as? [String]
                    ?? []
                #expect(Set(names.map { ($0 as NSString).pathExtension }) == ["dng", "jpg"])
                try await browser.wait(
                    "thumbnails",
                    until:
                        "return [...document.querySelectorAll('#items img')].every(i => i.complete && i.naturalWidth > 0)"
                )
                try save(try await browser.screenshot(), "gallery.png")

                // The RAW developer: +2 EV brightens the preview.
                _ = try await browser.run(
                    "[...document.querySelectorAll('#items .item')].find(e => e.dataset.name.endsWith('.dng')).click()")
                let develop = "[...document.querySelectorAll('#details button')].find(b => b.textContent === 'Develop')"
                try await browser.wait("the Develop button", until: "return !!\(develop)")
                _ = try await browser.run("\(develop).click()")
                try await browser.wait(
                    "the first preview",
                    until: "return document.querySelector('#rawStatus').textContent.startsWith('preview')")
                let before = try await browser.run(Self.meanScript, ["#rawPreview"]) as? Double ?? -1
                _ = try await browser.run(
                    """
                    document.querySelector('#rawStatus').textContent = "";
                    const s = document.querySelector("#raw-exposure"); s.value = 2; s.dispatchEvent(new Event("input"));
                    """)
                try await browser.wait(
                    "the new preview",
                    until: "return document.querySelector('#rawStatus').textContent.startsWith('preview')")
                try await browser.wait(
                    "the preview image",
                    until: "const i = document.querySelector('#rawPreview'); return i.complete && i.naturalWidth > 0")
                let after = try await browser.run(Self.meanScript, ["#rawPreview"]) as? Double ?? -1
                #expect(after > before + 20, "RAW preview means at 0 and +2 EV: \(before), \(after)")
                try save(try await browser.screenshot(), "developer.png")

                // The filter lab: SepiaTone on the JPEG warms it (red above blue) and shows the chain's text.
                _ = try await browser.run("document.querySelector('nav button[data-panel=gallery]').click()")
                _ = try await browser.run(
                    "[...document.querySelectorAll('#items .item')].find(e => e.dataset.name.endsWith('.jpg')).click()")
                let lab = "[...document.querySelectorAll('#details button')].find(b => b.textContent === 'Filter lab')"
                try await browser.wait("the Filter lab button", until: "return !!\(lab)")
                _ = try await browser.run("\(lab).click()")
                try await browser.wait(
                    "the filter list", until: "return document.querySelector('#filterName').options.length > 10")
                _ = try await browser.run(
                    "document.querySelector('#filterName').value = 'SepiaTone'; document.querySelector('#addFilter').click()"
                )
                try await browser.wait(
                    "the sepia preview",
                    until: """
                        const i = document.querySelector('#labPreview');
                        return i.src.startsWith('blob:') && i.complete && i.naturalWidth > 0 && !window.luxStudio.lab.busy;
                        """)
                let chainText =
                    try await browser.run("return document.querySelector('#chainText').textContent") as? String
                #expect(chainText?.contains("--chain 'SepiaTone intensity=1'") == true, "\(chainText ?? "")")
                let warmth =
                    try await browser.run(
                        """
                        const img = document.querySelector('#labPreview');
                        const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
                        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
                        const d = g.getImageData(0, 0, c.width, c.height).data;
                        let r = 0, b = 0; for (let i = 0; i < d.length; i += 4) { r += d[i]; b += d[i + 2]; }
                        return (r - b) / (d.length / 4);
                        """) as? Double ?? 0
                #expect(warmth > 10, "sepia's red minus blue: \(warmth)")
                try save(try await browser.screenshot(), "filterlab.png")

                #expect(try await browser.consoleErrors() == [])
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
    }

    @Test(
        "edit and save a Live Photo: play and scrub, a key photo, a trim, mute, a sepia time-based square crop with the bundled logo, saved as a new pair",
        .tags(.long), .longRunning, .needs("chromium", "chromedriver", "ffmpeg"))
    func liveEditor() async throws {
        let folder = try ExternalTool.temporaryFolder("lux-studio-browser-live")
        defer { try? FileManager.default.removeItem(at: folder) }
        try TestLivePhoto.write(in: folder)
        let studio = try Studio(configuration: StudioConfiguration(port: 0, captureFolder: folder, scene: "gray-card"))
        try await studio.application().test(.live) { client in
            let port = try #require(client.port)
            let browser = try await WebDriver()
            do {
                try await browser.open("http://127.0.0.1:\(port)/")
                _ = try await browser.run("document.querySelector('nav button[data-panel=gallery]').click()")
                try await browser.wait(
                    "the Live Photo", until: "return document.querySelectorAll('#items .item').length === 1")
                _ = try await browser.run("document.querySelector('#items .item').click()")
                let edit =
                    "[...document.querySelectorAll('#details button')].find(b => b.textContent === 'Edit Live Photo')"
                try await browser.wait("the Edit Live Photo button", until: "return !!\(edit)")
                _ = try await browser.run("\(edit).click()")
                try await browser.wait(
                    "the timeline",
                    until: "return document.querySelector('#liveInfo').textContent.includes('30 frames')")

                // Play, then scrub to 0.4 s (frame 12) and make it the key photo.
                try await browser.wait(
                    "the movie to load", until: "return document.querySelector('#liveVideo').readyState >= 2")
                _ = try await browser.run("document.querySelector('#livePlay').click()")
                try await browser.wait(
                    "the movie to play", until: "return document.querySelector('#liveVideo').currentTime > 0.55")
                _ = try await browser.run(
                    """
                    const s = document.querySelector('#liveScrub'); s.value = 0.4; s.dispatchEvent(new Event('input'));
                    """)
                try await browser.wait(
                    "the scrubbed frame",
                    until: """
                        const v = document.querySelector('#liveVideo');
                        return v.paused && Math.abs(v.currentTime - 0.4) < 0.02 && !v.seeking;
                        """)
                _ = try await browser.run("document.querySelector('#liveKeyHere').click()")
                let key = try await browser.run("return document.querySelector('#liveKey').textContent") as? String
                #expect(key == "the frame at 0.40 s", "\(key ?? "")")

                // Trim to 0.2…0.8 s, mute, the seed's time-based crop (a square sliding through the movie), a sepia
                // chain and the bundled logo, 40 % wide in the bottom right corner; preview.
                _ = try await browser.run(
                    """
                    const set = (id, v) => { const e = document.querySelector(id); e.value = v; e.dispatchEvent(new Event('input')); };
                    set('#liveTrimStart', 0.2); set('#liveTrimEnd', 0.8);
                    document.querySelector('#liveMute').click();
                    const p = document.querySelector('#liveProcessor'); p.value = 'slidingSquare'; p.dispatchEvent(new Event('change'));
                    document.querySelector('#liveChain').value = 'SepiaTone intensity=1';
                    const w = document.querySelector('#liveWatermark'); w.value = 'bundled'; w.dispatchEvent(new Event('change'));
                    set('#liveWatermarkWidth', 0.4);
                    document.querySelector('#livePreview').click();
                    """)
                let controls =
                    try await browser.run(
                        "return [document.querySelector('#liveSquare').checked, document.querySelector('#liveSlide').checked]"
                    )
                    as? [Bool]
                #expect(controls == [true, true], "the time-based crop preset sets both crop boxes")
                try await browser.wait(
                    "the preview", seconds: 60,
                    until: """
                        const i = document.querySelector('#liveStill');
                        return document.querySelector('#liveStatus').textContent === 'preview' && i.complete
                            && i.naturalWidth > 0 && document.querySelector('#liveVideo').readyState >= 2;
                        """)
                let size =
                    try await browser.run(
                        "const i = document.querySelector('#liveStill'); return [i.naturalWidth, i.naturalHeight]")
                    as? [Int]
                #expect(size?.count == 2 && size?.first == size?.last, "preview still \(size ?? [])")
                try save(try await browser.screenshot(), "live.png")

                // Save: a new pair beside the original, shown in the gallery.
                _ = try await browser.run("document.querySelector('#liveSave').click()")
                try await browser.wait(
                    "the save", seconds: 60,
                    until: "return document.querySelector('#liveStatus').textContent.startsWith('saved')")
                let status =
                    try await browser.run("return document.querySelector('#liveStatus').textContent") as? String
                #expect(status == "saved 0/IMG_0001_edit.JPG and 0/IMG_0001_edit.MOV", "\(status ?? "")")
                _ = try await browser.run("document.querySelector('nav button[data-panel=gallery]').click()")
                try await browser.wait(
                    "two gallery items", until: "return document.querySelectorAll('#items .item').length === 2")
                #expect(try await browser.consoleErrors() == [])
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
        // The saved pair: a square still of the key frame's size class and a 0.6 s movie with silent sound.
        let saved = try LivePhoto(photoURL: folder.appendingPathComponent("IMG_0001_edit.JPG"))
        #expect(abs(saved.duration.seconds - 0.6) < 0.05 && abs(saved.photoTime.seconds - 0.2) < 0.02)
        let still = try ImageFile.read(url: saved.photoURL).pixels
        #expect(still.width == 240 && still.height == 240)
        // The logo, 96 px wide with a 7.2 px margin: its yellow left border at (144, 214); the middle is sepia.
        #expect(LiveEffectRouteTests.isLogoYellow(LiveEffectRouteTests.rgb(still, 144, 214)))
        #expect(!LiveEffectRouteTests.isLogoYellow(LiveEffectRouteTests.rgb(still, 120, 120)))
        // Every frame of the 120 × 120 movie (0.6 s at 30 fps) has it too: 48 px wide, its border at (72, 107).
        let frames = try ExternalTool.ffmpegRGBFrames(saved.movieURL, width: 120, height: 120)
        #expect(frames.count == 18)
        for (k, frame) in frames.enumerated() {
            #expect(
                LiveEffectRouteTests.isLogoYellow(LiveEffectRouteTests.rgb(frame, width: 120, 72, 107)), "frame \(k)")
        }
    }
}
