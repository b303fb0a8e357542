internal import RealModule

@inline(__always)
func pow(_ x: Double, _ y: Double) -> Double { Double.pow(x, y) }

@inline(__always)
func cbrt(_ x: Double) -> Double { Double.root(x, 3) }

@inline(__always)
func exp(_ x: Double) -> Double { Double.exp(x) }

@inline(__always)
func sqrt(_ x: Double) -> Double { x.squareRoot() }

@inline(__always)
func atan2(_ y: Double, _ x: Double) -> Double { Double.atan2(y: y, x: x) }

@inline(__always)
func sin(_ x: Double) -> Double { Double.sin(x) }

@inline(__always)
func cos(_ x: Double) -> Double { Double.cos(x) }
