import BuiltProducts
import Foundation
import Testing
import TracerSlot

/// Issue 25's shopping app, recorded with values on: no form of its token in
/// the trace or in any command's output (`serve`'s answers included), while
/// its user names, totals and declassified login flag are still shown.
@Suite(.serialized) struct ShoppingAppSecretTests {
    @Test(.installsTracer) func noFormOfTheTokenReachesAnyOutputAndTheClearValuesDo() throws {
        let directory = try CICommand.temporaryDirectory()
        let trace = directory.appendingPathComponent("shop.trace").path
        let other = directory.appendingPathComponent("shop-other.trace").path
        let app = try ShoppingApp.record(at: trace)
        _ = try ShoppingApp.record(at: other)
        let forbidden = app.secrets.flatMap(SecretGraph.forms(of:))

        let bytes = try Data(contentsOf: URL(fileURLWithPath: trace))
        // The 10 MB receipt is not in it, in any form.
        #expect(bytes.count < 1_000_000)
        for form in forbidden {
            #expect(bytes.range(of: Data(form.utf8)) == nil, "the trace holds \(form)")
        }
        for clear in app.userNames + app.totals {
            #expect(bytes.range(of: Data(clear.utf8)) != nil, "the trace lacks \(clear)")
        }

        let outputs = try SecretLeakTests.outputs(of: trace, other: other, valueNodes: app.valueNodes,
                                                  computeds: app.computeds)
        for (what, text) in outputs {
            for form in forbidden where text.contains(form) {
                Issue.record("\(what) shows \(form)")
            }
        }
        func output(_ what: String) -> String { outputs.first { $0.0 == what }?.1 ?? "" }
        for clear in app.userNames + app.totals + [app.receiptSize] {
            #expect(outputs.contains { $0.1.contains(clear) }, "no output shows \(clear)")
        }
        // Each secret-derived node is shown withheld, and the declassified flag in clear.
        for name in ["authHeader", "credentials", "tokens", "request", "Session.header", "Session.lastSignalled",
                     "CartStore.authorization", "receiptText"] {
            #expect(output("history \(trace) \(name)").contains("‹redacted›"), "history of \(name)")
        }
        let loggedIn = output("history \(trace) isLoggedIn --json")
        #expect(loggedIn.contains("true") && loggedIn.contains("false") && !loggedIn.contains("‹redacted›"))
        #expect(output("history \(trace) total").contains("246912"))
        #expect(output("history \(trace) greeting").contains("Hello grace-hopper-9"))
        let actions = output("replay \(trace)")
        #expect(actions.contains("authorize") && actions.contains("‹redacted›"))
        #expect(actions.contains("\"scones\", 23457"))
    }
}
