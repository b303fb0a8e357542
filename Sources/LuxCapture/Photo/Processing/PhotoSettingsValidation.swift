import LuxPixels

/// The rules a request must satisfy before it is accepted (seeds 000, 001 and 003), checked in one place.
enum PhotoSettingsValidation {
    /// What the output state adds to the capabilities.
    struct OutputLimits {
        var isHighResolutionCaptureEnabled: Bool
        var isLivePhotoCaptureEnabled: Bool
        var maxPhotoQualityPrioritization: QualityPrioritization
    }

    /// Throws the first rule `settings` breaks.
    static func validate(_ settings: PhotoSettings, capabilities c: PhotoCapabilities, limits: OutputLimits)
        throws(CaptureError)
    {
        guard let format = c.format else { throw .notRunning("the photo output has no camera connection") }
        // Something to deliver.
        guard settings.wantsRAW || settings.wantsProcessed else {
            throw .invalidPhotoSettings("the settings ask for neither a processed nor a RAW photo")
        }
        // Processed format offered.
        switch settings.processedFormat {
        case .codec(let codec)?:
            guard c.photoCodecs.contains(codec) else {
                throw .invalidPhotoSettings(
                    "codec \(codec) is not offered (availablePhotoCodecTypes: \(c.photoCodecs.map(\.rawValue)))")
            }
        case .pixelFormat(let pf)?:
            guard c.photoPixelFormats.contains(pf) else {
                throw .invalidPhotoSettings(
                    "pixel format \(pf.fourCharacterCode) is not offered (availablePhotoPixelFormatTypes: \(c.photoPixelFormats.map(\.fourCharacterCode)))"
                )
            }
        case nil: break
        }
        // RAW: a photo format on the rear camera, a format from the list, no stabilised processed photo.
        if let raw = settings.rawPixelFormat {
            guard !c.rawPixelFormats.isEmpty else {
                let why =
                    !c.developsRAW
                    ? "\(c.deviceName)'s active format \(format) carries no Bayer data; choose a Bayer format for RAW"
                    : !format.isPhotoFormat
                        ? "RAW needs a photo format (the .photo session preset); the active format \(format) is a video format"
                        : c.position != .back
                            ? "RAW is offered by the rear camera only" : "this camera does not capture RAW"
                throw .invalidPhotoSettings(why)
            }
            guard c.rawPixelFormats.contains(raw) else {
                throw .invalidPhotoSettings(
                    "RAW format \(raw) is not offered (availableRawPhotoPixelFormatTypes: \(c.rawPixelFormats.map(\.description)))"
                )
            }
            guard !settings.isAutoStillImageStabilizationEnabled else {
                throw .invalidPhotoSettings(
                    settings.wantsProcessed
                        ? "RAW + a still-image-stabilised processed photo is not supported; turn isAutoStillImageStabilizationEnabled off"
                        : "RAW photos cannot use still-image stabilisation; turn isAutoStillImageStabilizationEnabled off"
                )
            }
        }
        // Brackets and photo formats need a camera whose Bayer frames the output develops.
        guard c.developsRAW || (!format.isPhotoFormat && settings.bracket == nil) else {
            throw .unsupported(
                "\(c.deviceName) takes one photo per stream frame: brackets and multi-frame photos need a camera the photo output develops (the simulated camera)"
            )
        }
        // Quality prioritisation.
        guard settings.qualityPrioritization <= limits.maxPhotoQualityPrioritization else {
            throw .qualityPrioritizationAboveMaximum(
                requested: settings.qualityPrioritization, maximum: limits.maxPhotoQualityPrioritization)
        }
        // Flash.
        guard c.flashModes.contains(settings.flashMode) else {
            throw .invalidPhotoSettings(
                "flash mode \(settings.flashMode) is not supported (supportedFlashModes: \(c.flashModes.map(\.rawValue)))"
            )
        }
        // High resolution.
        if settings.isHighResolutionPhotoEnabled && !limits.isHighResolutionCaptureEnabled {
            throw .invalidPhotoSettings(
                "isHighResolutionPhotoEnabled needs the output's isHighResolutionCaptureEnabled set first")
        }
        // Preview.
        if let p = settings.previewFormat {
            guard c.previewPixelFormats.contains(p.pixelFormat) else {
                throw .invalidPhotoSettings(
                    "preview pixel format \(p.pixelFormat.fourCharacterCode) is not offered (availablePreviewPhotoPixelFormatTypes: \(c.previewPixelFormats.map(\.fourCharacterCode)))"
                )
            }
            if let d = p.dimensions {
                let photo = c.highResolutionDimensions
                guard d.width > 0, d.height > 0, d.width <= photo.width, d.height <= photo.height else {
                    throw .invalidPhotoSettings(
                        "preview dimensions \(d) must be positive and at most the photo's \(photo)")
                }
            }
        }
        // Brackets.
        if let bracket = settings.bracket {
            guard !bracket.isEmpty else { throw .invalidPhotoSettings("a bracket needs at least one item") }
            guard bracket.count <= c.maxBracketCount else {
                throw .bracketTooLarge(count: bracket.count, maximum: c.maxBracketCount)
            }
            let auto = bracket[0].isAuto
            guard bracket.allSatisfy({ $0.isAuto == auto }) else {
                throw .invalidPhotoSettings("a bracket mixes auto-exposure and manual-exposure items; use one kind")
            }
            for item in bracket {
                switch item {
                case .auto(let bias):
                    guard format.exposureTargetBiasRange.contains(bias) else {
                        throw .outOfRange(
                            name: "bracket exposure target bias", value: Double(bias),
                            range: Double(
                                format.exposureTargetBiasRange.lowerBound)...Double(
                                    format.exposureTargetBiasRange.upperBound))
                    }
                case .manual(let duration, let iso):
                    guard duration >= format.minExposureDuration, duration <= format.maxExposureDuration else {
                        throw .outOfRange(
                            name: "bracket exposure duration", value: duration.seconds,
                            range: format.minExposureDuration.seconds...format.maxExposureDuration.seconds)
                    }
                    guard iso.isFinite, iso >= format.minISO, iso <= format.maxISO else {
                        throw .outOfRange(
                            name: "bracket ISO", value: Double(iso),
                            range: Double(format.minISO)...Double(format.maxISO))
                    }
                }
            }
            guard settings.livePhotoMovieURL == nil else {
                throw .invalidPhotoSettings("a bracket cannot be a Live Photo")
            }
        } else if settings.isLensStabilizationEnabled {
            throw .invalidPhotoSettings("isLensStabilizationEnabled applies to brackets only")
        }
        // Live Photos.
        if settings.livePhotoMovieURL != nil {
            guard limits.isLivePhotoCaptureEnabled else {
                throw .invalidPhotoSettings(
                    "livePhotoMovieURL needs the output's isLivePhotoCaptureEnabled (photo preset, no movie file output)"
                )
            }
            guard settings.wantsProcessed else {
                throw .invalidPhotoSettings("a Live Photo needs a processed still")
            }
            guard settings.livePhotoMovieURL?.isFileURL == true else {
                throw .invalidPhotoSettings("livePhotoMovieURL must be a file URL")
            }
        }
    }
}
