import LuxCodecs
public import LuxPixels

extension LivePhotoEditingContext {
    /// The camera's motion between consecutive movie frames (each frame decoded, reduced and dropped).
    ///
    /// - Throws: ``LivePhotoError/movieNotDecodable(_:codec:)`` for H.264/HEVC movies; read errors.
    public func measureVideoMotion() throws(LivePhotoError) -> [FrameMotion] {
        guard let track = movie.videoTrack else { throw .noVideo(livePhoto.movieURL) }
        guard track.canDecodeFrames else { throw .movieNotDecodable(livePhoto.movieURL, codec: track.codecName) }
        let samples: [MovieSample]
        do throws(CodecError) { samples = try movie.samples(of: track) } catch { throw .unreadable(livePhoto.movieURL, error) }
        return try FrameMotion.measure(count: samples.count) { (i) throws(LivePhotoError) in
            do throws(CodecError) { return try movie.decodeVideoFrame(samples[i], of: track) } catch {
                throw .unreadable(livePhoto.movieURL, error)
            }
        }
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
        stabilizer.transforms(motion: try measureVideoMotion(), width: videoWidth, height: videoHeight)
    }
}
