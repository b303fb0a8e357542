/// How missing colours of a Bayer mosaic are reconstructed.
///
/// Mean CPSNR with `demosaic_psnr.py`'s protocol (8-bit sRGB, RGGB, 8-px border excluded) on its five skimage
/// photographs: bilinear 30.56 dB, Malvar–He–Cutler 34.00, Menon 2007 35.70, LibRaw AHD 35.33, AAHD 35.86;
/// ``rcd`` 36.48, ``quality`` 36.26. On the held-out photographs of `demosaic_heldout.py` (none used in designing
/// these methods): Menon 2007 39.72 dB, ``rcd`` 39.93, ``quality`` 40.65 (Benchmarks/RESULTS.md).
public enum DemosaicMethod: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Ratio Corrected Demosaicing with Menon's a-posteriori refinement: the default (36.48 dB).
    case rcd
    /// Bilinear interpolation of each plane (30.56 dB): fast, with zippers at edges.
    case bilinear
    /// The quality method: the RCD estimate and the directional-filtering estimate of Menon, Andriani & Calvagno
    /// (2007) averaged, then Menon's refining step along Menon's edge direction. About three times RCD's cost; their
    /// errors are partly independent, so the average beats either on photographs neither was tuned on.
    case quality

    /// Photosites of support a demosaiced pixel needs on every side.
    public var margin: Int {
        switch self {
        case .rcd: RCDDemosaic.margin
        case .bilinear: BilinearDemosaic.margin
        case .quality: RCDDemosaic.margin + 3
        }
    }

    /// The method's name (`rcd`, `bilinear`, `quality`), as the CLI's `--method` takes it.
    public var description: String { rawValue }
}
