import ReactorCore
import Testing
import ReactorTrace

/// The recorder maps the runtime's tracing vocabulary onto the trace schema one to
/// one: every runtime case to the schema kind of the same meaning (same name), no
/// two to the same code, and no schema kind left without a runtime case. A case
/// added on one side only fails here.
@Suite struct SchemaMappingTests {
    /// Checks that `map` sends every runtime case to the schema case of the same
    /// name, that no two runtime cases share a schema case, that every schema case
    /// is reached, and that the way back returns where it started.
    static func expectOneToOne<Runtime: CaseIterable & Equatable, Schema: CaseIterable & Hashable>(
        _ map: (Runtime) -> Schema, back: (Schema) -> Runtime
    ) {
        var reached: Set<Schema> = []
        for runtime in Runtime.allCases {
            let schema = map(runtime)
            #expect("\(runtime)" == "\(schema)", "\(Runtime.self).\(runtime) is written as \(Schema.self).\(schema)")
            #expect(reached.insert(schema).inserted, "two cases of \(Runtime.self) are written as \(schema)")
            #expect(back(schema) == runtime)
        }
        let unreached = Schema.allCases.filter { !reached.contains($0) }
        #expect(unreached.isEmpty, "\(Schema.self) cases no runtime case is written as: \(unreached)")
    }

    @Test func nodeKinds() {
        Self.expectOneToOne({ TraceNodeKind($0) }, back: { ReactorTracing.NodeKind($0) })
    }

    @Test func invalidationCauses() {
        Self.expectOneToOne({ InvalidationCause($0) }, back: { ReactorTracing.InvalidationCause($0) })
    }

    @Test func issueKinds() {
        Self.expectOneToOne({ TraceIssueKind($0) }, back: { ReactorTracing.IssueKind($0) })
    }
}
