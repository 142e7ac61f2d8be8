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
        ("Views/*", "Views/List/Row.swift:3", true),
        ("Person.?ge", "Person.âge", true),
        ("[à-é]*", "écran", true),
        ("[^A-C]*", "Dan", true),
    ])
    func matches(pattern: String, name: String, expected: Bool) throws {
        #expect(try Glob(pattern).matches(name) == expected)
    }

    // fnmatch(3) reads a `[` that no `]` closes as a literal character.
    @Test func unclosedClassMatchesItself() throws {
        let glob = try Glob("abc[de")
        #expect(glob.matches("abc[de"))
        #expect(!glob.matches("abcd"))
    }

    @Test func trailingBackslashIsAnError() throws {
        #expect(throws: GlobError(pattern: "add\\", message: "trailing '\\' escapes nothing")) { try Glob("add\\") }
        #expect(try Glob("add\\\\").matches("add\\"))
    }

    @Test func pathologicalPatternStaysFast() throws {
        // Exponential backtracking would never finish this.
        let glob = try Glob(String(repeating: "*a", count: 30) + "b")
        #expect(!glob.matches(String(repeating: "a", count: 200)))
    }
}
