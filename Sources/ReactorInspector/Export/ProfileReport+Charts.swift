extension ProfileReport {
    private static func x(_ text: String) -> String { MarkupEscaping.xml(text) }

    /// The rerun-duration histogram as inline SVG: one bar per power-of-two
    /// bucket from the fastest to the slowest rerun, counts on top, bucket
    /// bounds below.
    func histogramSVG() -> String {
        let histogram = profile.rerunHistogram
        guard let range = histogram.occupiedRange else {
            return "<p class=\"empty\">No reruns in this trace.</p>"
        }
        let buckets = Array(range)
        let width = 1060.0, height = 240.0
        let left = 48.0, right = 12.0, top = 24.0, bottom = 44.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let slot = plotWidth / Double(buckets.count)
        let barWidth = max(2, slot * 0.78)
        let maxCount = buckets.map { histogram.buckets[$0] }.max() ?? 1
        let niceMax = Self.niceCeiling(Double(maxCount))
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Histogram of rerun durations\">"
        for step in 0...4 {
            let value = niceMax * Double(step) / 4
            let y = top + plotHeight - plotHeight * Double(step) / 4
            svg += "<line class=\"grid\" x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(Self.f(y))\" y2=\"\(Self.f(y))\"/>"
            svg += "<text class=\"axis\" x=\"\(left - 8)\" y=\"\(Self.f(y + 4))\" text-anchor=\"end\">\(Int(value))</text>"
        }
        for (slotIndex, bucket) in buckets.enumerated() {
            let count = histogram.buckets[bucket]
            let barHeight = plotHeight * Double(count) / niceMax
            let xPosition = left + slot * Double(slotIndex) + (slot - barWidth) / 2
            let y = top + plotHeight - barHeight
            let low = RerunHistogram.lowerBound(ofBucket: bucket)
            let high = RerunHistogram.lowerBound(ofBucket: bucket + 1)
            let label = "\(DurationText.format(low))–\(DurationText.format(high))"
            svg += "<g><title>\(Self.x(label)): \(CountText.of(count, "rerun"))</title>"
            svg += "<rect class=\"bar\" x=\"\(Self.f(xPosition))\" y=\"\(Self.f(y))\" width=\"\(Self.f(barWidth))\" height=\"\(Self.f(max(barHeight, count > 0 ? 1 : 0)))\" rx=\"2\"/>"
            if count > 0 {
                svg += "<text class=\"count\" x=\"\(Self.f(xPosition + barWidth / 2))\" y=\"\(Self.f(y - 5))\" text-anchor=\"middle\">\(count)</text>"
            }
            svg += "</g>"
            if buckets.count <= 16 || slotIndex % 2 == 0 {
                svg += "<text class=\"axis\" x=\"\(Self.f(xPosition + barWidth / 2))\" y=\"\(Self.f(top + plotHeight + 16))\" text-anchor=\"middle\">≥\(Self.x(DurationText.format(low)))</text>"
            }
        }
        svg += "<text class=\"axis-title\" x=\"\(Self.f(left + plotWidth / 2))\" y=\"\(Self.f(height - 6))\" text-anchor=\"middle\">rerun duration (power-of-two buckets)</text>"
        svg += "</svg>"
        return svg
    }

    /// The timeline as inline SVG: per thread, one lane of actions and one of
    /// flushes over the trace's duration. Spans closer than a pixel are
    /// merged so a trace with thousands of flushes still draws quickly.
    func timelineSVG() -> String {
        let spans = profile.timeline
        guard !spans.isEmpty else { return "<p class=\"empty\">No flushes or actions in this trace.</p>" }
        let start = profile.firstTimestamp ?? 0
        let end = max(profile.lastTimestamp, start.saturatingAdd(1))
        let threads = Array(Set(spans.map(\.thread))).sorted()
        let width = 1060.0, left = 110.0, right = 12.0, laneHeight = 22.0, laneGap = 8.0, top = 10.0
        let plotWidth = width - left - right
        let lanes = threads.flatMap { thread in
            [TimelineSpan.Kind.action, .flush].compactMap { kind in
                spans.contains { $0.thread == thread && $0.kind == kind } ? (thread, kind) : nil
            }
        }
        let height = top + Double(lanes.count) * (laneHeight + laneGap) + 34
        // Times come from the file: a span before `start` or past `end` is drawn at the edge.
        func xPosition(_ time: UInt64) -> Double {
            guard time > start else { return left }
            return left + plotWidth * min(1, Double(time - start) / Double(max(end - start, 1)))
        }
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"Timeline of flushes and actions\">"
        for tick in 0...5 {
            let time = start.saturatingAdd(UInt64(saturating: Double(end - start) * Double(tick) / 5))
            let x = xPosition(time)
            svg += "<line class=\"grid\" x1=\"\(Self.f(x))\" x2=\"\(Self.f(x))\" y1=\"\(top)\" y2=\"\(Self.f(height - 28))\"/>"
            // Trace times, as the action timeline and every other view write them.
            svg += "<text class=\"axis\" x=\"\(Self.f(x))\" y=\"\(Self.f(height - 12))\" text-anchor=\"\(tick == 0 ? "start" : tick == 5 ? "end" : "middle")\">\(Self.x(DurationText.formatTime(time)))</text>"
        }
        for (laneIndex, lane) in lanes.enumerated() {
            let y = top + Double(laneIndex) * (laneHeight + laneGap)
            let label = "\(lane.1 == .action ? "actions" : "flushes") · t\(lane.0)"
            svg += "<text class=\"lane\" x=\"\(left - 10)\" y=\"\(Self.f(y + laneHeight / 2 + 4))\" text-anchor=\"end\">\(Self.x(label))</text>"
            svg += "<rect class=\"lane-bg\" x=\"\(left)\" y=\"\(Self.f(y))\" width=\"\(Self.f(plotWidth))\" height=\"\(laneHeight)\" rx=\"3\"/>"
            let laneSpans = spans.filter { $0.thread == lane.0 && $0.kind == lane.1 }.sorted { $0.start < $1.start }
            var merged: [(x0: Double, x1: Double, count: Int, reruns: Int, duration: UInt64, label: String,
                          began: UInt64, ended: UInt64)] = []
            for span in laneSpans {
                let x0 = xPosition(span.start), x1 = max(xPosition(span.end), x0 + 1.5)
                if var last = merged.last, x0 <= last.x1 + 0.75 {
                    last.x1 = max(last.x1, x1)
                    last.count += 1
                    last.reruns += span.reruns
                    last.duration = last.duration.saturatingAdd(span.end - min(span.start, span.end))
                    last.ended = max(last.ended, span.end)
                    if last.label != span.label { last.label = lane.1 == .action ? "actions" : "flushes" }
                    merged[merged.count - 1] = last
                } else {
                    merged.append((x0, x1, 1, span.reruns, span.end - min(span.start, span.end), span.label, span.start, span.end))
                }
            }
            let cssClass = lane.1 == .action ? "span-action" : "span-flush"
            for run in merged {
                // An action's reruns are those it caused (charged to its call); a flush's, those inside it.
                let reruns = lane.1 == .action ? "caused " + CountText.of(run.reruns, "rerun")
                    : CountText.of(run.reruns, "rerun") + " inside"
                let title = run.count == 1
                    ? "\(run.label) at \(DurationText.formatTime(run.began)): \(DurationText.format(run.duration)), \(reruns)"
                    : "\(run.count) \(lane.1 == .action ? "actions" : "flushes") (\(run.label)) from \(DurationText.formatTime(run.began))"
                      + " to \(DurationText.formatTime(run.ended)): \(DurationText.format(run.duration)) in all, \(reruns)"
                svg += "<rect class=\"\(cssClass)\" x=\"\(Self.f(run.x0))\" y=\"\(Self.f(y + 3))\" width=\"\(Self.f(run.x1 - run.x0))\" height=\"\(laneHeight - 6)\" rx=\"2\"><title>\(Self.x(title))</title></rect>"
            }
        }
        svg += "</svg>"
        if profile.droppedTimelineSpans > 0 {
            svg += "<p class=\"note\">The timeline shows the first \(spans.count) spans; \(profile.droppedTimelineSpans) later ones are left out.</p>"
        }
        return svg
    }

    /// 1, 2, 5 × 10ⁿ at or above `value`.
    static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= value { magnitude *= 10 }
        for factor in [1.0, 2.0, 2.5, 5.0, 10.0] where factor * magnitude >= value { return factor * magnitude }
        return 10 * magnitude
    }

    /// A coordinate with at most one decimal.
    static func f(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        guard tenths.isFinite else { return "0" }
        return tenths == tenths.rounded() ? Int(exactly: tenths).map(String.init) ?? String(tenths) : String(tenths)
    }
}
