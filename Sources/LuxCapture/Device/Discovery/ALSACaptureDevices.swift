import FoundationEssentials

/// The ALSA capture devices (microphones and line inputs) the kernel lists in `/proc/asound/pcm`.
///
/// Each line of that file describes one PCM device as `CC-DD: id : name : playback N : capture N`; the ones with a
/// capture part are listed, as the node `/dev/snd/pcmC<card>D<device>c` and the ALSA name `hw:<card>,<device>`,
/// named after their card as `/proc/asound/cards` gives it (` 1 [C920  ]: USB-Audio - HD Pro Webcam C920`).
/// Lux lists them so users can see their microphones; capture sessions record audio from ``SimulatedMicrophone``
/// only.
public struct ALSACaptureDevices: Hashable, Sendable {
    /// The file the devices are read from.
    public var pcmListPath: String
    /// The file the card names are read from.
    public var cardListPath: String

    /// Reads the devices from the kernel's lists (tests pass files of their own).
    public init(pcmListPath: String = "/proc/asound/pcm", cardListPath: String = "/proc/asound/cards") {
        self.pcmListPath = pcmListPath
        self.cardListPath = cardListPath
    }

    /// The capture devices, in the file's order; none when the file cannot be read (no sound cards, no ALSA).
    public func devices() -> [DiscoveredMicrophone] {
        func read(_ path: String) -> String? {
            (try? Data(contentsOf: URL(filePath: path))).map { String(decoding: $0, as: UTF8.self) }
        }
        guard let pcm = read(pcmListPath) else { return [] }
        return Self.parse(pcm: pcm, cards: read(cardListPath) ?? "")
    }

    /// The card names of a `/proc/asound/cards` text, by card number (the text after the driver and " - ").
    static func cardNames(_ text: String) -> [Int: String] {
        var names: [Int: String] = [:]
        for line in text.split(separator: "\n") {
            let head = line.split(separator: "[", maxSplits: 1)
            guard head.count == 2, let card = Int(trimmed(head[0])),
                let colon = line.firstRange(of: "]: "), let dash = line[colon.upperBound...].firstRange(of: " - ")
            else { continue }
            names[card] = trimmed(line[dash.upperBound...])
        }
        return names
    }

    /// The capture devices of a `/proc/asound/pcm` text, named after the cards of a `/proc/asound/cards` text.
    static func parse(pcm: String, cards: String) -> [DiscoveredMicrophone] {
        let cardNames = cardNames(cards)
        return pcm.split(separator: "\n").compactMap { line -> DiscoveredMicrophone? in
            let parts = line.split(separator: ":", omittingEmptySubsequences: false).map(trimmed)
            let numbers = parts.first?.split(separator: "-").compactMap { Int($0) } ?? []
            guard numbers.count == 2, parts.count >= 3, parts.dropFirst(3).contains(where: { $0.hasPrefix("capture") })
            else { return nil }
            let (card, device) = (numbers[0], numbers[1])
            let pcmName = parts[2].isEmpty ? parts[1] : parts[2]
            return DiscoveredMicrophone(
                uniqueID: "alsa:hw:\(card),\(device)",
                localizedName: cardNames[card].map { "\($0): \(pcmName)" } ?? pcmName,
                path: "/dev/snd/pcmC\(card)D\(device)c", isCaptureSupported: false)
        }
    }

    /// The text without the spaces and tabs around it.
    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
