import Foundation
import LuxColor
public import LuxScene

/// The built-in photographic scenes: photographs shipped with the package, with their lights.
extension Scene {
    /// The names of the built-in photographic scenes, for ``photographic(named:)``.
    public static let photographicCatalogNames = [
        "photo-daylight", "photo-indoor", "photo-low-light", "photo-portrait", "photo-codes",
    ]

    /// The messages printed in `photo-codes`: a QR code on the left card, an Aztec code on the right one.
    public static let photoCodesMessages = (qr: "https://lux.example/photo-codes", aztec: "LUX AZTEC 30")

    /// A built-in photographic scene by name.
    ///
    /// - `photo-daylight`: a terrace with plants in daylight (D65, 20 000 lx), 6 m away.
    /// - `photo-indoor`: a colour chart on a table 0.55 m away under 3000 K lamps at 150 lx, in front of a window
    ///   5 m away lit by daylight four stops brighter (a photograph with a depth map).
    /// - `photo-low-light`: a rocket on its pad at dusk (5 lx), its floodlights six stops above the scene.
    /// - `photo-portrait`: a dog on a sofa, 0.23–0.67 m away from the iPhone portrait's depth map, in a bright room (600 lx).
    /// - `photo-codes`: a cup of coffee on a wooden table under lamps (3000 K, 400 lx) with two cards on it
    ///   (left and right), a QR code and an Aztec code (``photoCodesMessages``) printed with Lux's ``CodeWriter``.
    ///
    /// The procedural scenes (``named(_:)``) stay for measurement; these have natural texture, depth and dynamic
    /// range.
    ///
    /// - Throws: ``SceneError/unknownScene(name:known:)`` naming the scenes that exist,
    ///   ``SceneError/unreadableFile(path:reason:)`` when the package's photographs are missing.
    public static func photographic(named name: String) throws(SceneError) -> Scene {
        var scene: Scene
        switch name {
        case "photo-daylight":
            scene = try photograph(
                contentsOf: try photographURL("daylight.jpg"), distance: 6, light: Light(.d65, lux: 20_000),
                highlightStops: 2)
        case "photo-indoor":
            // The photograph's depth map puts the window 5 m away: that layer alone is lit by the daylight outside.
            let room = Light(.planckian(kelvin: 3000), lux: 150)
            scene = try photograph(
                contentsOf: try photographURL("indoor.jpg"), depth: try photographURL("indoor-depth.tif"),
                light: room, highlightStops: 2)
            for i in scene.layers.indices where scene.layers[i].distance > 2 {
                scene.layers[i].light = Light(.d65, lux: room.illuminance * 16)
            }
        case "photo-low-light":
            scene = try photograph(
                contentsOf: try photographURL("low-light.jpg"), distance: 100,
                light: Light(.planckian(kelvin: 4000), lux: 5), highlightStops: 6)
        case "photo-portrait":
            scene = try photograph(
                contentsOf: try photographURL("portrait.jpg"), depth: try photographURL("portrait-depth.tif"),
                light: Light(.d65, lux: 600), highlightStops: 2)
        case "photo-codes":
            scene = try photograph(
                contentsOf: try photographURL("coffee.jpg"), distance: 0.6,
                light: Light(.planckian(kelvin: 3000), lux: 400), highlightStops: 3)
            let cards = [
                try Print.code(.qr, photoCodesMessages.qr, origin: SIMD2(0.03, 0.38), size: 0.3),
                try Print.code(.aztec, photoCodesMessages.aztec, origin: SIMD2(0.69, 0.42), size: 0.26),
            ]
            scene.layers.append(
                SceneLayer(
                    name: "cards", distance: 0.55,
                    shapes: cards.map { card in
                        Shape(
                            .rectangle(origin: card.origin, size: card.size),
                            fill: .image(card.image, origin: card.origin, size: card.size, depthRange: nil))
                    }))
        default:
            throw .unknownScene(name: name, known: photographicCatalogNames)
        }
        scene.name = name
        return scene
    }

    /// A built-in scene by name, procedural (``named(_:)``) or photographic (``photographic(named:)``).
    ///
    /// - Throws: ``SceneError/unknownScene(name:known:)`` naming every built-in scene.
    public static func builtIn(named name: String) throws(SceneError) -> Scene {
        if photographicCatalogNames.contains(name) { return try photographic(named: name) }
        do {
            return try named(name)
        } catch {
            throw .unknownScene(name: name, known: catalogNames + photographicCatalogNames)
        }
    }

    /// The URL of one of the package's photographs.
    static func photographURL(_ file: String) throws(SceneError) -> URL {
        let url = Bundle.module.bundleURL.appendingPathComponent("Photographs").appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .unreadableFile(path: url.path, reason: "the package's photograph is missing")
        }
        return url
    }
}
