/// An 8-bit RGB picture held as three planes (a decoder's own memory), read by encoders that take planes directly.
struct PlanarRGB8 {
    /// One plane: its first sample and the bytes from one row to the next.
    struct Plane {
        let base: UnsafePointer<UInt8>
        let stride: Int
    }

    let width: Int
    let height: Int
    let red: Plane
    let green: Plane
    let blue: Plane
}
