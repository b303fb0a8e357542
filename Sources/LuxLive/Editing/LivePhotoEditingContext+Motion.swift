import LuxCodecs
public import LuxFusion
public import LuxPixels

extension LivePhotoEditingContext {
    /// The camera's motion between consecutive movie frames (each frame decoded, reduced and dropped).
    ///
    /// - Throws: ``LivePhotoError/movieNotDecodable(_:codec:)`` for a codec FFmpeg cannot decode; read errors.
    public func measureVideoMotion() throws(LivePhotoError) -> [FrameMotion] {
        try analyzeVideo(motion: true, stabilizer: nil).motion
    }

    /// The part of the movie to keep once a shoe shot is trimmed (`0..<duration` when there is none).
    public func autoTrimmedRange(using trimmer: LivePhotoAutoTrimmer = LivePhotoAutoTrimmer()) throws(LivePhotoError)
        -> Range<MediaTime>
    {
        trimmer.trimRange(
            motion: try measureVideoMotion(), frameTimes: videoFrameTimes, frameWidth: videoWidth, photoTime: photoTime,
            duration: duration)
    }

    /// Per-frame transforms that steady the movie (for ``videoFrameTransforms``).
    public func stabilizationTransforms(using stabilizer: LivePhotoStabilizer = LivePhotoStabilizer())
        throws(LivePhotoError) -> [AffineTransform]
    {
        try analyzeVideo(motion: false, stabilizer: stabilizer).transforms
    }

    /// One decoding pass over the movie: frame-to-frame motion (for trimming) and stabilisation transforms.
    func analyzeVideo(motion: Bool, stabilizer: LivePhotoStabilizer?) throws(LivePhotoError)
        -> (motion: [FrameMotion], transforms: [AffineTransform])
    {
        guard let movie, let track = movie.videoTrack, movieProblem == nil else {
            throw movieProblem ?? .noVideo(livePhoto.movieURL)
        }
        let reader: VideoFrameReader
        do throws(CodecError) { reader = try VideoFrameReader(movie: movie, track: track) } catch {
            throw .unreadable(livePhoto.movieURL, error)
        }
        // Frames arrive in order; each is measured against the previous one and reduced, then dropped.
        let count = videoFrameTimes.count
        var reduced: [PixelBuffer] = []
        let next = { () throws(LivePhotoError) -> PixelBuffer in
            do throws(CodecError) {
                guard let frame = try reader.next() else {
                    throw .truncated(what: "video of \(livePhoto.movieURL.lastPathComponent)", offset: 0)
                }
                if let s = stabilizer { reduced.append(s.reduced(frame.pixels)) }
                return frame.pixels
            } catch {
                throw .unreadable(livePhoto.movieURL, error)
            }
        }
        let pairs = try FrameMotion.measure(count: motion ? count : 0) { (_) throws(LivePhotoError) in try next() }
        if stabilizer != nil, !motion { for _ in 0..<count { _ = try next() } }
        var transforms: [AffineTransform] = []
        if let s = stabilizer {
            do throws(FusionError) {
                transforms = try s.transforms(reduced: reduced, width: videoWidth, height: videoHeight)
            } catch {
                throw .invalidEdit("stabilisation: \(error)")
            }
        }
        return (pairs, transforms)
    }
}
