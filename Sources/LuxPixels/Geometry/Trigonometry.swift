internal import RealModule

@inline(__always)
func sine(_ x: Double) -> Double { Double.sin(x) }

@inline(__always)
func cosine(_ x: Double) -> Double { Double.cos(x) }
