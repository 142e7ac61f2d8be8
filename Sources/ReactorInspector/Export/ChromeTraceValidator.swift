import Foundation

/// Checks a Chrome Trace Event JSON document against the format's rules, so
/// tests (and anyone post-processing an export) can trust what they load:
/// it parses as JSON; every event has a name, a known phase, pid and tid;
/// timed events have a numeric `ts` in microseconds, non-decreasing per
/// thread in file order; `B`/`E` are balanced and properly nested per
/// thread; instant events have a scope; every flow `s` has an `f` with the
/// same id (and no `t`/`f` comes before its `s`); metadata events carry args.
package struct ChromeTraceValidator {
    /// What the validator found.
    public struct Summary: Sendable, Equatable {
        /// Events per phase letter.
        public var eventsByPhase: [String: Int] = [:]
        /// Flow ids that have both an `s` and an `f`.
        public var completeFlows = 0
        /// Slices (`B`/`E` pairs) per name.
        public var slicesByName: [String: Int] = [:]
        /// Thread names from `thread_name` metadata, by tid.
        public var threadNames: [Int: String] = [:]
        /// The document's `displayTimeUnit`.
        public var displayTimeUnit: String?
    }

    /// A rule the document breaks.
    public struct Violation: Error, Sendable, Equatable, CustomStringConvertible {
        /// The index of the offending event in `traceEvents` (-1 for the document).
        public var eventIndex: Int
        /// What is wrong.
        public var message: String
        /// `event 12: ...`.
        public var description: String { eventIndex < 0 ? message : "event \(eventIndex): \(message)" }
    }

    /// Validates `data`; throws the first rule broken.
    public static func validate(_ data: Data) throws(Violation) -> Summary {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw Violation(eventIndex: -1, message: "not JSON: \(error.localizedDescription)")
        }
        guard let document = root as? [String: Any], let events = document["traceEvents"] as? [[String: Any]] else {
            throw Violation(eventIndex: -1, message: "expected an object with a traceEvents array of objects")
        }
        var summary = Summary()
        summary.displayTimeUnit = document["displayTimeUnit"] as? String
        if let unit = summary.displayTimeUnit, unit != "ms", unit != "ns" {
            throw Violation(eventIndex: -1, message: "displayTimeUnit must be \"ms\" or \"ns\", not \(unit)")
        }
        struct ThreadKey: Hashable { var pid: Int; var tid: Int }
        var lastTime: [ThreadKey: Double] = [:]
        var stacks: [ThreadKey: [String]] = [:]
        var openFlows: Set<String> = []
        var finishedFlows: Set<String> = []

        for (index, event) in events.enumerated() {
            func fail(_ message: String) -> Violation { Violation(eventIndex: index, message: message) }
            guard let phase = event["ph"] as? String else { throw fail("missing ph") }
            guard let name = event["name"] as? String, !name.isEmpty else { throw fail("missing name") }
            guard let pid = (event["pid"] as? NSNumber)?.intValue, let tid = (event["tid"] as? NSNumber)?.intValue else {
                throw fail("missing pid or tid")
            }
            summary.eventsByPhase[phase, default: 0] += 1
            let thread = ThreadKey(pid: pid, tid: tid)
            if phase == "M" {
                guard let args = event["args"] as? [String: Any] else { throw fail("metadata without args") }
                if name == "thread_name" {
                    guard let threadName = args["name"] as? String else { throw fail("thread_name without args.name") }
                    summary.threadNames[tid] = threadName
                }
                continue
            }
            guard let time = (event["ts"] as? NSNumber)?.doubleValue, time.isFinite, time >= 0 else {
                throw fail("missing or invalid ts")
            }
            if let previous = lastTime[thread], time < previous {
                throw fail("ts \(time) goes back in time on pid \(pid) tid \(tid) (previous \(previous))")
            }
            lastTime[thread] = time
            guard event["args"] is [String: Any] else { throw fail("missing args object") }
            switch phase {
            case "B":
                stacks[thread, default: []].append(name)
            case "E":
                guard let open = stacks[thread]?.popLast() else { throw fail("E without an open B on tid \(tid)") }
                if open != name { throw fail("E \"\(name)\" closes B \"\(open)\" (improper nesting)") }
                summary.slicesByName[name, default: 0] += 1
            case "X":
                guard let duration = (event["dur"] as? NSNumber)?.doubleValue, duration >= 0 else { throw fail("X without dur") }
            case "i", "I":
                guard let scope = event["s"] as? String, ["g", "p", "t"].contains(scope) else {
                    throw fail("instant event without a scope g, p or t")
                }
            case "s", "t", "f":
                guard event["cat"] is String else { throw fail("flow event without cat") }
                guard let idNumber = event["id"] else { throw fail("flow event without id") }
                let id = "\(idNumber)"
                switch phase {
                case "s":
                    if openFlows.contains(id) || finishedFlows.contains(id) { throw fail("flow id \(id) started twice") }
                    openFlows.insert(id)
                case "t":
                    if !openFlows.contains(id) { throw fail("flow step for id \(id) before its start") }
                default:
                    if !openFlows.contains(id) { throw fail("flow end for id \(id) without a start") }
                    if let binding = event["bp"] as? String, binding != "e" { throw fail("bp must be \"e\"") }
                    openFlows.remove(id)
                    finishedFlows.insert(id)
                }
            case "C", "b", "e", "n", "N", "O", "D", "P", "R", "c", "(", ")":
                break
            default:
                throw fail("unknown phase \(phase)")
            }
        }
        if let (thread, stack) = stacks.first(where: { !$0.value.isEmpty }) {
            throw Violation(eventIndex: -1, message: "unclosed B \"\(stack.last!)\" on tid \(thread.tid)")
        }
        if let id = openFlows.first {
            throw Violation(eventIndex: -1, message: "flow id \(id) starts but never finishes")
        }
        summary.completeFlows = finishedFlows.count
        return summary
    }
}
