import BuiltProducts
import Foundation
import Testing

/// The profile sample's username pipeline, recorded by the real sample and read
/// by the real inspector: a send into the text field's subject reaches the
/// label autorun through a binding, and every stage is a node.
@Suite struct SignalPipelineTests {
    @Test func whyLeadsTheLabelsRerunsBackToTheSubjectThatSent() throws {
        let trace = try SampleTrace.profile.get()
        let result = try BuiltProducts.inspect("why", trace.path, "usernameLabel", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let reruns = try #require(trace.reruns["usernameLabel"])
        #expect(object["reruns"] as? Int == reruns)
        let patterns = try #require(object["patterns"] as? [[String: Any]])
        let rerunPattern = try #require(patterns.first { ($0["chain"] as? [String])?.last == "autorun usernameLabel reran" })
        #expect(rerunPattern["count"] as? Int == reruns)
        #expect(rerunPattern["chain"] as? [String] == [
            "subject usernameField sent a value",
            "binding usernameField.bind(to: Profile.username) received it",
            "binding usernameField.bind(to: Profile.username) ran",
            "Profile.username changed",
            "autorun usernameLabel invalidated",
            "autorun usernameLabel reran",
        ])

        let text = try BuiltProducts.inspect("why", trace.path, "usernameLabel")
        #expect(text.stdout.contains("\(reruns)×  subject usernameField sent a value → binding usernameField.bind(to: "
                                     + "Profile.username) ran → Profile.username changed → autorun usernameLabel invalidated"))
    }

    @Test func whyFollowsAValueThroughTheOperators() throws {
        let trace = try SampleTrace.profile.get()
        let result = try BuiltProducts.inspect("why", trace.path, "Profile.username.distinctUntilChanged.take(3).filter")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("operator Profile.username.distinctUntilChanged.take(3).filter: 3 runs, 3 reruns"))
        #expect(result.stdout.contains("subject usernameField sent a value → binding usernameField.bind(to: Profile.username) "
                                       + "ran → Profile.username changed → operator Profile.username.distinctUntilChanged "
                                       + "passed it on → operator Profile.username.distinctUntilChanged.take(3) passed it on "
                                       + "→ operator Profile.username.distinctUntilChanged.take(3).filter ran"))
    }

    @Test func graphDrawsThePipeline() throws {
        let trace = try SampleTrace.profile.get()
        let result = try BuiltProducts.inspect("graph", trace.path, "--all", "--format", "dot", "-o", "-")
        #expect(result.status == 0, "\(result.stderr)")
        let dot = result.stdout
        for edge in [
            #"usernameField -> "usernameField.bind(to: Profile.username)""#,
            #""Profile.username" -> "Profile.username.distinctUntilChanged""#,
            #""Profile.username.distinctUntilChanged" -> "Profile.username.distinctUntilChanged.take(3)""#,
            #""Profile.username.distinctUntilChanged.take(3)" -> "Profile.username.distinctUntilChanged.take(3).filter""#,
            #""Profile.username" -> "Profile.username.map""#,
            #""Profile.username.map" -> "Profile.username.map.bind(to: Label)""#,
            #""Profile.username" -> usernameLabel"#,
        ] {
            #expect(dot.contains(edge), "\(edge)")
        }
        #expect(dot.contains(#"tooltip="Profile.username.distinctUntilChanged (operator)"#))
        #expect(dot.contains(#"tooltip="usernameField.bind(to: Profile.username) (binding)"#))
    }

    @Test func stagesAppearAsTimeInTheHotList() throws {
        let trace = try SampleTrace.profile.get()
        let result = try BuiltProducts.inspect("hot", trace.path, "--json", "--top", "100")
        #expect(result.status == 0, "\(result.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let binding = try #require(entries.first { $0["name"] as? String == "usernameField.bind(to: Profile.username)" })
        #expect(binding["kind"] as? String == "binding")
        #expect(binding["reruns"] as? Int == 7)   // one per send
        #expect((binding["totalNanoseconds"] as? Int ?? 0) > 0)
        let map = try #require(entries.first { $0["name"] as? String == "Profile.username.map" })
        #expect(map["kind"] as? String == "operator")
    }
}
