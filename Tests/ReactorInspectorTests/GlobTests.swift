import Testing
@testable import ReactorInspector

@Suite struct GlobTests {
    @Test(arguments: [
        ("TodoList*", "TodoList.list", true),
        ("TodoList*", "TodoList", true),
        ("TodoList*", "MyTodoList", false),
        ("*", "", true),
        ("*.list", "TodoList.list", true),
        ("*.list", "TodoList.lists", false),
        ("Todo?ist.*", "TodoList.x", true),
        ("Todo?ist.*", "Todoist.x", false),
        ("[A-C]*", "Bob", true),
        ("[A-C]*", "Dan", false),
        ("[!A-C]*", "Dan", true),
        ("a\\*b", "a*b", true),
        ("a\\*b", "axb", false),
        ("*a*b*c*", "xxaxxbxxcxx", true),
        ("*a*b*c*", "xxaxxcxxbxx", false),
        ("Counter.swift:12", "Counter.swift:12", true),
    ])
    func matches(pattern: String, name: String, expected: Bool) throws {
        #expect(try Glob(pattern).matches(name) == expected)
    }

    @Test func unclosedClassIsAnError() {
        #expect(throws: GlobError.self) { try Glob("abc[de") }
    }

    @Test func pathologicalPatternStaysFast() throws {
        // Exponential backtracking would never finish this.
        let glob = try Glob(String(repeating: "*a", count: 30) + "b")
        #expect(!glob.matches(String(repeating: "a", count: 200)))
    }
}
