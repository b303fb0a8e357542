public import FoundationEssentials
public import LuxColor
public import LuxPixels

extension QuickTimeWriter {
    /// The video track: H.264 by default (HEVC or Motion-JPEG on request).
    public struct VideoSettings: Hashable, Sendable {
        /// Frame width in pixels (1…65 535; even for H.264 and HEVC, whose 4:2:0 chroma covers pixel pairs).
        public var width: Int
        /// Frame height in pixels (1…65 535; even for H.264 and HEVC).
        public var height: Int
        /// The compression (default ``VideoCodec/h264``).
        public var codec: VideoCodec
        /// The encoder's preset and rate factor (H.264 and HEVC).
        public var compression: VideoCompression
        /// Media ticks per second (600 represents 24, 25, 30 and 60 fps exactly); default 600.
        public var timescale: Int32
        /// How long the last frame shows when ``QuickTimeWriter/finish(endTime:)`` is not told (default 1/30 s).
        public var frameDuration: MediaTime
        /// JPEG quality 0…1 (Motion-JPEG; default 0.85).
        public var quality: Double
        /// JPEG chroma subsampling (Motion-JPEG; default 4:2:0).
        public var chromaSubsampling: ChromaSubsampling
        /// The frames' colour space, tagged in the 'colr' atom: sRGB (BT.709 primaries) or Display P3.
        ///
        /// Frames in other spaces are colour-matched into it. Default sRGB.
        public var colorSpace: ColorSpace
        /// How the frames are shown (the track matrix), as the still's Exif orientation says (default `.up`).
        public var orientation: Orientation
        /// The decoder configuration record (`avcC` for H.264, `hvcC` for HEVC) of frames already compressed.
        ///
        /// The track then takes them with ``QuickTimeWriter/appendCompressedVideoSample(_:)`` (from a
        /// ``CompressedVideoReader``) and encodes nothing. `nil` (the default): the writer encodes the frames it is
        /// given.
        public var compressedConfiguration: [UInt8]?

        /// Creates video settings.
        public init(
            width: Int, height: Int, codec: VideoCodec = .h264, compression: VideoCompression = VideoCompression(),
            timescale: Int32 = 600, frameDuration: MediaTime = MediaTime(value: 1, timescale: 30),
            quality: Double = 0.85, chromaSubsampling: ChromaSubsampling = .both, colorSpace: ColorSpace = .sRGB,
            orientation: Orientation = .up
        ) {
            self.width = width
            self.height = height
            self.codec = codec
            self.compression = compression
            self.timescale = timescale
            self.frameDuration = frameDuration
            self.quality = quality
            self.chromaSubsampling = chromaSubsampling
            self.colorSpace = colorSpace
            self.orientation = orientation
        }
    }

    /// How the audio track is stored.
    public enum AudioCodec: String, Hashable, Sendable, Codable, CaseIterable {
        /// AAC-LC ('mp4a'), encoded by FFmpeg's AAC encoder: what an iPhone records.
        case aac
        /// Signed 16-bit PCM ('sowt' up to 65 535 Hz, 'lpcm' version 2 above): lossless, about 10× larger.
        case pcm
    }

    /// The audio track: AAC by default, 16-bit PCM on request; samples are given as interleaved 16-bit PCM.
    public struct AudioSettings: Hashable, Sendable {
        /// Frames per second (8 000…192 000; AAC: 8 000…96 000).
        public var sampleRate: Int
        /// Channels (1…8), interleaved.
        public var channelCount: Int
        /// Where the audio starts on the movie's timeline (default zero).
        public var startTime: MediaTime
        /// How it is stored (default ``AudioCodec/aac``).
        public var codec: AudioCodec

        /// Creates audio settings.
        public init(sampleRate: Int, channelCount: Int, startTime: MediaTime = .zero, codec: AudioCodec = .aac) {
            self.sampleRate = sampleRate
            self.channelCount = channelCount
            self.startTime = startTime
            self.codec = codec
        }
    }

    /// What the movie holds.
    public struct Settings: Hashable, Sendable {
        /// The video track, if any.
        public var video: VideoSettings?
        /// The audio track, if any (a Live Photo captured without a microphone has none).
        public var audio: AudioSettings?
        /// Movie-level metadata (moov/meta with 'mdta' keys), such as the content identifier and the author.
        public var metadata: [MovieMetadataItem]
        /// The creation and modification date in the headers (default: when the movie is finished).
        public var creationDate: Date?
        /// Puts the movie header before the media data so players can start before the whole file arrives (costs one
        /// copy of the media data at the end); default off (Apple's layout: header last).
        public var fastStart: Bool
        /// Flushes the file to disk before renaming it into place (default on).
        public var synchronizesFile: Bool
        /// Ticks per second of the movie timeline and the timed-metadata tracks (default 600).
        public var movieTimescale: Int32

        /// Creates settings.
        public init(
            video: VideoSettings? = nil, audio: AudioSettings? = nil, metadata: [MovieMetadataItem] = [],
            creationDate: Date? = nil, fastStart: Bool = false, synchronizesFile: Bool = true,
            movieTimescale: Int32 = 600
        ) {
            self.video = video
            self.audio = audio
            self.metadata = metadata
            self.creationDate = creationDate
            self.fastStart = fastStart
            self.synchronizesFile = synchronizesFile
            self.movieTimescale = movieTimescale
        }

        func validate() throws(CodecError) {
            guard video != nil || audio != nil else {
                throw .invalidArgument(
                    "a movie needs a video or an audio track (settings.video and settings.audio are nil)")
            }
            guard movieTimescale > 0 else {
                throw .invalidArgument("the movie timescale must be positive, not \(movieTimescale)")
            }
            if let v = video {
                guard (1...65535).contains(v.width), (1...65535).contains(v.height) else {
                    throw .invalidArgument("video frames are 1…65535 pixels wide and high, not \(v.width)×\(v.height)")
                }
                if let c = v.compressedConfiguration {
                    guard v.codec != .motionJPEG, !c.isEmpty else {
                        throw .invalidArgument(
                            "compressed frames are copied into H.264 and HEVC tracks with their configuration record, "
                                + "not into a \(v.codec.name) track\(c.isEmpty ? " with an empty record" : "")")
                    }
                } else if v.codec != .motionJPEG {
                    guard v.width % 2 == 0, v.height % 2 == 0 else {
                        throw .invalidArgument(
                            "\(v.codec.name) frames (4:2:0) have an even width and height, not \(v.width)×\(v.height)")
                    }
                    guard (0...51).contains(v.compression.constantRateFactor),
                        v.compression.keyFrameInterval >= 1, v.compression.threads >= 0
                    else {
                        throw .invalidArgument(
                            "the constant rate factor \(v.compression.constantRateFactor) must be 0…51, the key-frame "
                                + "interval \(v.compression.keyFrameInterval) at least 1 and the threads "
                                + "\(v.compression.threads) at least 0")
                    }
                }
                guard v.timescale > 0 else {
                    throw .invalidArgument("the video timescale must be positive, not \(v.timescale)")
                }
                guard v.frameDuration.isNumeric, v.frameDuration > .zero else {
                    throw .invalidArgument("the frame duration must be positive, not \(v.frameDuration)")
                }
                guard (0...1).contains(v.quality) else {
                    throw .invalidArgument("JPEG quality \(v.quality) is outside 0…1")
                }
                guard
                    v.colorSpace.isColorimetricallyEqual(to: .sRGB)
                        || v.colorSpace.isColorimetricallyEqual(to: .displayP3)
                else {
                    throw .invalidArgument(
                        "video frames are written in sRGB or Display P3, not \(v.colorSpace.name) (frames are matched into it)"
                    )
                }
            }
            if let a = audio {
                let rates = a.codec == .aac ? 8000...96_000 : 8000...192_000
                guard rates.contains(a.sampleRate) else {
                    throw .invalidArgument(
                        "the \(a.codec.rawValue) sample rate \(a.sampleRate) Hz is outside \(rates.lowerBound)…\(rates.upperBound)"
                    )
                }
                guard (1...8).contains(a.channelCount) else {
                    throw .invalidArgument("\(a.channelCount) audio channels; 1…8 are supported")
                }
                guard a.startTime.isNumeric, a.startTime >= .zero else {
                    throw .invalidArgument("the audio start time \(a.startTime) must be ≥ 0")
                }
            }
            var seen = Set<MovieMetadataItem.Key>()
            for item in metadata where !seen.insert(item.key).inserted {
                throw .invalidArgument("the movie metadata key \(item.key.rawValue) appears twice")
            }
        }
    }
}
