extension TrendReport.Scenario {
    /// The scenario's series as a self-contained SVG: reruns and unneeded
    /// reruns above, rerun time below, one column per recording, each change
    /// point a red line at its commit.
    public func svg() -> String {
        let xml = MarkupEscaping.xml
        let width = 160 + 90 * max(1, commits.count - 1), panel = 120.0, top = 40.0, gap = 50.0, left = 80.0
        let height = Int(top + 2 * panel + gap + 70)
        func x(_ index: Int) -> Double { left + Double(index) * 90 }
        func polyline(_ values: [Double?], maximum: Double, base: Double, color: String) -> String {
            var out = ""
            var points: [String] = []
            for (index, value) in values.enumerated() {
                guard let value else { continue }
                let y = base + panel - (maximum == 0 ? 0 : value / maximum * panel)
                points.append("\(x(index)),\(y)")
                out += "<circle cx=\"\(x(index))\" cy=\"\(y)\" r=\"3\" fill=\"\(color)\"/>"
            }
            return "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>" + out
        }
        let maxCount = Double(max(1, reruns.max() ?? 0))
        let maxTime = Double(max(1, rerunNanoseconds.max() ?? 0))
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" font-family=\"sans-serif\" font-size=\"11\">"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
        svg += "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">\(xml(name))</text>"
        let timeBase = top + panel + gap
        for (base, label) in [(top, "reruns (max \(Int(maxCount)))"), (timeBase, "rerun time (max \(DurationText.format(UInt64(maxTime))))")] {
            svg += "<line x1=\"\(left)\" y1=\"\(base + panel)\" x2=\"\(x(max(0, commits.count - 1)) + 10)\" y2=\"\(base + panel)\" stroke=\"#999\"/>"
            svg += "<line x1=\"\(left)\" y1=\"\(base)\" x2=\"\(left)\" y2=\"\(base + panel)\" stroke=\"#999\"/>"
            svg += "<text x=\"\(left)\" y=\"\(base - 6)\">\(xml(label))</text>"
        }
        for change in changes {
            guard let index = commits.firstIndex(of: change.commit) else { continue }
            svg += "<line x1=\"\(x(index))\" y1=\"\(top)\" x2=\"\(x(index))\" y2=\"\(timeBase + panel)\" stroke=\"#d33\" stroke-dasharray=\"4 3\">"
            svg += "<title>\(xml(change.sentence))</title></line>"
        }
        svg += polyline(reruns.map { Double($0) }, maximum: maxCount, base: top, color: "#2a6fdb")
        svg += polyline(unneededReruns.map { $0.map(Double.init) }, maximum: maxCount, base: top, color: "#e08a00")
        svg += polyline(rerunNanoseconds.map { Double($0) }, maximum: maxTime, base: timeBase, color: "#2a9d55")
        for (index, commit) in commits.enumerated() {
            let label = commit.count > 12 ? String(commit.prefix(12)) : commit
            svg += "<text x=\"\(x(index))\" y=\"\(timeBase + panel + 16)\" text-anchor=\"middle\">\(xml(label))<title>\(xml(commit))</title></text>"
        }
        svg += "<text x=\"\(left)\" y=\"\(height - 12)\" fill=\"#2a6fdb\">● reruns</text>"
        svg += "<text x=\"\(left + 80)\" y=\"\(height - 12)\" fill=\"#e08a00\">● unneeded reruns</text>"
        svg += "<text x=\"\(left + 210)\" y=\"\(height - 12)\" fill=\"#2a9d55\">● rerun time</text>"
        return svg + "</svg>\n"
    }
}
