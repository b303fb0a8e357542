internal import RealModule

@inline(__always)
func expDouble(_ x: Double) -> Double { Double.exp(x) }

@inline(__always)
func sinDouble(_ x: Double) -> Double { Double.sin(x) }

@inline(__always)
func sqrtFloat(_ x: Float) -> Float { x.squareRoot() }

@inline(__always)
func exp2Float(_ x: Float) -> Float { Float.exp2(x) }
