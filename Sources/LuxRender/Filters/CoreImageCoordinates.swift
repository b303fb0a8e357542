public import LuxPixels

/// Converts positions, angles and transforms between Core Image's coordinates and Lux's.
///
/// Core Image puts the origin at the bottom left of an image with y growing upwards; Lux puts it at the top left
/// with y growing downwards (see ``Image``). The two describe the same rectangle of pixels — an image of extent
/// `(0, 0, w, h)` has that extent in both — so a position converts by reflecting y within the extent:
/// `y′ = minY + maxY − y`. A reflection turns counter-clockwise into clockwise, so angles change sign, and a
/// transform is conjugated by the reflection. The conversion is its own inverse.
///
/// ```swift
/// let ci = CoreImageCoordinates(extent: photo.extent)
/// let twirled = try photo.applyingFilter(
///     "CITwirlDistortion", coreImageParameters: ["inputCenter": [300, 100], "inputAngle": 1.5])
/// let center = ci.point(Point(x: 300, y: 100))   // the same pixel in Lux's coordinates
/// ```
///
/// Filters declare how each parameter converts (``FilterParameter/geometry``): points and rectangles are
/// positions, numbers in radians are angles, transforms are transforms, offsets are displacements.
public struct CoreImageCoordinates: Sendable, Hashable {
    /// The rectangle whose bottom edge is Core Image's y origin side (an image's extent, or a generator's canvas).
    public var extent: Rect

    /// The coordinates of an image or canvas of `extent`.
    ///
    /// - Precondition: `extent` is finite and not empty (an infinite image has no bottom edge to measure from).
    public init(extent: Rect) {
        precondition(
            !extent.isInfinite && !extent.isEmpty, "Core Image coordinates need a finite extent, not \(extent)")
        self.extent = extent
    }

    /// The y coordinate in the other convention.
    public func y(_ y: Double) -> Double { extent.minY + extent.maxY - y }

    /// The point in the other convention.
    public func point(_ p: Point) -> Point { Point(x: p.x, y: y(p.y)) }

    /// The rectangle in the other convention (its top edge becomes its bottom edge).
    public func rect(_ r: Rect) -> Rect { Rect(x: r.minX, y: y(r.maxY), width: r.width, height: r.height) }

    /// The angle in the other convention (counter-clockwise becomes clockwise).
    public func angle(_ a: Double) -> Double { -a }

    /// The transform in the other convention: reflect, apply `t`, reflect back.
    public func transform(_ t: AffineTransform) -> AffineTransform {
        let reflect = AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: extent.minY + extent.maxY)
        return reflect.concatenating(t).concatenating(reflect)
    }

    /// `value` of `parameter` in the other convention, by the parameter's ``FilterParameter/geometry``.
    ///
    /// Values of a kind the geometry does not apply to (a number given for a point) are returned unchanged, for the
    /// filter's own checks to report.
    public func value(_ value: FilterValue, for parameter: FilterParameter) -> FilterValue {
        switch (parameter.geometry, value) {
        case (.position, .vector(let v)) where parameter.kind == .rect && v.count == 4:
            return .rect(rect(Rect(x: v[0], y: v[1], width: v[2], height: v[3])))
        case (.position, .vector(let v)) where v.count >= 2:
            var w = v
            w[1] = y(v[1])
            return .vector(w)
        case (.displacement, .vector(let v)) where v.count >= 2:
            var w = v
            w[1] = -v[1]
            return .vector(w)
        case (.angle, .number(let a)):
            return .number(angle(a))
        case (.transform, .transform(let t)):
            return .transform(transform(t))
        case (.transform, .vector(let v)) where v.count == 6:
            return .transform(transform(AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])))
        default:
            return value
        }
    }

    /// Every geometric value of `parameters` (named as a filter of `descriptor` accepts) in the other convention.
    ///
    /// - Throws: ``FilterError/unknownParameter(filter:parameter:accepted:)`` for a name the filter does not have.
    public func parameters(_ parameters: [String: FilterValue], for descriptor: FilterDescriptor) throws(FilterError)
        -> [String: FilterValue]
    {
        var out: [String: FilterValue] = [:]
        for (name, v) in parameters {
            guard let p = FilterArguments.parameter(name, in: descriptor) else {
                throw .unknownParameter(
                    filter: descriptor.name, parameter: name, accepted: descriptor.parameters.map(\.name))
            }
            out[name] = value(v, for: p)
        }
        return out
    }
}

extension FilterRegistry {
    /// Applies the filter called `name` with parameters written in Core Image's coordinates for `coordinates`
    /// (positions, angles and transforms are converted; see ``CoreImageCoordinates``).
    ///
    /// - Parameters:
    ///   - image: The filter's main input, or `nil` for generators.
    ///   - coordinates: The image or canvas the parameters' Core Image coordinates refer to.
    public func apply(
        _ name: String, to image: Image?, coreImageParameters: [String: FilterValue],
        in coordinates: CoreImageCoordinates
    ) throws(FilterError) -> Image {
        let descriptor = try descriptor(named: name)
        return try apply(name, to: image, parameters: coordinates.parameters(coreImageParameters, for: descriptor))
    }
}
