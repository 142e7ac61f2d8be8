import Foundation

/// Maps a heat value to one of nine colours on a logarithmic scale, so one
/// very hot node does not wash out the rest.
package struct HeatScale: Sendable, Equatable {
    /// ColorBrewer's YlOrRd, pale to dark: computations.
    public static let warm = ["#ffffcc", "#ffeda0", "#fed976", "#feb24c", "#fd8d3c",
                              "#fc4e2a", "#e31a1c", "#bd0026", "#800026"]
    /// ColorBrewer's Blues, pale to dark: dependencies.
    public static let cool = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6",
                              "#4292c6", "#2171b5", "#08519c", "#08306b"]

    /// The largest value on the scale.
    public let maximum: Double
    /// The nine colours.
    public let colors: [String]

    /// A scale from 0 to `maximum` over `colors`.
    public init(maximum: Double, colors: [String]) {
        self.maximum = max(0, maximum)
        self.colors = colors
    }

    /// The colour level (0...8) of `value`.
    public func level(of value: Double) -> Int {
        guard maximum > 0, value > 0 else { return 0 }
        let fraction = log1p(value) / log1p(maximum)
        return min(colors.count - 1, max(0, Int((fraction * Double(colors.count - 1)).rounded())))
    }

    /// The colour of `value`.
    public func color(of value: Double) -> String { colors[level(of: value)] }

    /// The smallest value drawn at `level`.
    public func lowerBound(of level: Int) -> Double {
        guard level > 0, maximum > 0 else { return 0 }
        let fraction = (Double(level) - 0.5) / Double(colors.count - 1)
        return max(0, expm1(fraction * log1p(maximum)))
    }

    /// True if text on the colour of `level` should be white.
    public func isDark(_ level: Int) -> Bool { level >= 6 }
}
