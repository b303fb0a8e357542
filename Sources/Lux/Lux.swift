// The umbrella module: `import Lux` brings in every public Lux module.
@_exported public import LuxCapture
@_exported public import LuxCodecs
@_exported public import LuxColor
@_exported public import LuxFilters
@_exported public import LuxFusion
@_exported public import LuxIO
@_exported public import LuxInfo
@_exported public import LuxLive
@_exported public import LuxPixels
@_exported public import LuxRAW
@_exported public import LuxRender
@_exported public import LuxScene
