/// How missing colours of a Bayer mosaic are reconstructed.
///
/// Mean CPSNR on the skimage photographs with `demosaic_psnr.py`'s protocol (8-bit sRGB, RGGB, 8-px border
/// excluded): bilinear 30.56 dB, Malvar–He–Cutler 34.00, Menon 2007 35.70, LibRaw AHD 35.33, AAHD 35.86;
/// ``rcd`` 36.48.
public enum DemosaicMethod: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Ratio Corrected Demosaicing with Menon's a-posteriori refinement: the default (36.48 dB).
    case rcd
    /// Bilinear interpolation of each plane (30.56 dB): fast, with zippers at edges.
    case bilinear

    /// Photosites of support a demosaiced pixel needs on every side.
    public var margin: Int {
        switch self {
        case .rcd: RCDDemosaic.margin
        case .bilinear: BilinearDemosaic.margin
        }
    }

    /// The method's name (`rcd`, `bilinear`), as the CLI's `--method` takes it.
    public var description: String { rawValue }
}
