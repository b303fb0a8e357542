/// The 24 ColorChecker Classic patches (charts made after November 2014) as CIE L*a*b* (D50, 2°), row by row
/// from "dark skin" to "black 2" — X-Rite's published values as listed in ALGORITHMS.md §9.4.
///
/// Kept here until LuxColor's `ColorChecker` reference data lands; the scene only needs the Lab values.
enum ColorCheckerData {
    static let names = [
        "dark skin", "light skin", "blue sky", "foliage", "blue flower", "bluish green",
        "orange", "purplish blue", "moderate red", "purple", "yellow green", "orange yellow",
        "blue", "green", "red", "yellow", "magenta", "cyan",
        "white 9.5", "neutral 8", "neutral 6.5", "neutral 5", "neutral 3.5", "black 2",
    ]

    static let lab: [SIMD3<Double>] = [
        SIMD3(37.54, 14.37, 14.92), SIMD3(64.66, 19.27, 17.50), SIMD3(49.32, -3.82, -22.54),
        SIMD3(43.46, -12.74, 22.72), SIMD3(54.94, 9.61, -24.79), SIMD3(70.48, -32.26, -0.37),
        SIMD3(62.73, 35.83, 56.50), SIMD3(39.43, 10.75, -45.17), SIMD3(50.57, 48.64, 16.67),
        SIMD3(30.10, 22.54, -20.87), SIMD3(71.77, -24.13, 58.19), SIMD3(71.51, 18.24, 67.37),
        SIMD3(28.37, 15.42, -49.80), SIMD3(54.38, -39.72, 32.27), SIMD3(42.43, 51.05, 28.62),
        SIMD3(81.80, 2.67, 80.41), SIMD3(50.63, 51.28, -14.12), SIMD3(49.57, -29.71, -28.32),
        SIMD3(95.19, -1.03, 2.93), SIMD3(81.29, -0.57, 0.44), SIMD3(66.89, -0.75, -0.06),
        SIMD3(50.76, -0.13, 0.14), SIMD3(35.63, -0.46, -0.48), SIMD3(20.64, 0.07, -0.46),
    ]
}
