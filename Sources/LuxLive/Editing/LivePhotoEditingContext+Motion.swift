import LuxCodecs
public import LuxFusion
public import LuxPixels

extension LivePhotoEditingContext {
    /// The camera's motion between consecutive movie frames (each frame decoded, reduced and dropped).
    ///
    /// - Throws: ``LivePhotoError/movieNotDecodable(_:codec:)`` for H.264/HEVC movies; read errors.
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
        guard let track = movie.videoTrack else { throw .noVideo(livePhoto.movieURL) }
        guard track.canDecodeFrames else { throw .movieNotDecodable(livePhoto.movieURL, codec: track.codecName) }
        let samples: [MovieSample]
        do throws(CodecError) { samples = try movie.samples(of: track) } catch {
            throw .unreadable(livePhoto.movieURL, error)
        }
        var reduced: [PixelBuffer] = []
        let motions = try FrameMotion.measure(count: motion ? samples.count : 0) { (i) throws(LivePhotoError) in
            do throws(CodecError) {
                let frame = try movie.decodeVideoFrame(samples[i], of: track)
                if let s = stabilizer { reduced.append(s.reduced(frame)) }
                return frame
            } catch {
                throw .unreadable(livePhoto.movieURL, error)
            }
        }
        if let s = stabilizer, !motion {
            for sample in samples {
                do throws(CodecError) {
                    reduced.append(s.reduced(try movie.decodeVideoFrame(sample, of: track)))
                } catch {
                    throw .unreadable(livePhoto.movieURL, error)
                }
            }
        }
        var transforms: [AffineTransform] = []
        if let s = stabilizer {
            do throws(FusionError) {
                transforms = try s.transforms(reduced: reduced, width: videoWidth, height: videoHeight)
            } catch {
                throw .invalidEdit("stabilisation: \(error)")
            }
        }
        return (motions, transforms)
    }
}
