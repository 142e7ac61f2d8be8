import Foundation
import ReactorCore
import ReactorTrace

/// The app of issue 25, written from the README as a new user would: a token
/// marked `redacted` and moved the usual ways (interpolation, a struct and an
/// array holding it, a computed reading a computed, an autorun copying it into
/// a plain `@Reactive`, a signal over it, a store action taking it inside an
/// autorun), next to values that are not secret (a user name, a cart's total,
/// a login flag declassified with `reveals:`).
final class ShoppingApp {
    final class Settings: @unchecked Sendable {
        // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
        @Reactive(redacted: true) var apiToken = ""
        @Reactive var userName = ""
        /// A scanned receipt: huge, and not text.
        @Reactive var receiptScan = Redacted([UInt8]())
    }

    /// What a request carries: a struct holding the token.
    struct Credentials: Equatable {
        var user: String
        var token: String
    }

    struct Item: Equatable {
        var name: String
        var cents: Int
    }

    final class CartStore: Store, @unchecked Sendable {
        // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
        @Reactive var items: [Item] = []
        @Reactive var authorization = ""

        func add(_ item: Item) {
            action(item.name, item.cents) { items.append(item) }
        }

        /// Called with the token by an autorun.
        func authorize(_ token: String) {
            action(token) { authorization = "Bearer \(token)" }
        }
    }

    /// Plain state the app copies the header into.
    final class Session: @unchecked Sendable {
        // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
        @Reactive var header = ""
        @Reactive var lastSignalled = ""
    }

    /// The secrets it wrote, the clear values a trace must still show, and the
    /// nodes to ask `history` and `why` about.
    var secrets: [String] = []
    let userNames = ["ada-lovelace-7", "grace-hopper-9"]
    /// The cart's totals in cents, as written: distinctive numbers.
    let totals = ["123457", "246912"]
    /// What the 10 MB receipt repeats, and what follows its bytes that are not UTF-8.
    static let receiptMarker = "Hg7-RCPT-"
    static let rawReceiptMarker = "RAW-RCPT-Zq8"
    /// The receipt's size in bytes, declassified.
    let receiptSize = String(10 * 1024 * 1024 / receiptMarker.utf8.count * receiptMarker.utf8.count + 4 + rawReceiptMarker.utf8.count)
    let valueNodes = ["Settings.userName", "CartStore.items", "CartStore.authorization", "Session.header",
                      "Session.lastSignalled", "authHeader", "credentials", "tokens", "request", "isLoggedIn", "total",
                      "greeting", "receiptText", "receiptBytes"]
    let computeds = ["authHeader", "credentials", "tokens", "request", "isLoggedIn", "total", "greeting",
                     "receiptText", "receiptBytes"]

    /// Records the app's session at `path`, values on, and returns what it wrote.
    static func record(at path: String) throws -> ShoppingApp {
        let app = ShoppingApp()
        app.secrets = ["tk-Shop7Q2mXr9Lp4Zt", "tk-Next3Vb8Nw6Jc1Hs", receiptMarker, rawReceiptMarker]
        try TraceRecorder.start(path: path, options: TraceRecorder.Options(values: .described(maxLength: 4096)))
        let reactor = Reactor()
        let settings = Settings()
        let cart = CartStore()
        let session = Session()

        let authHeader = reactor.computed("authHeader") { "Bearer \(settings.apiToken)" }
        let credentials = reactor.computed("credentials") { Credentials(user: settings.userName, token: settings.apiToken) }
        let tokens = reactor.computed("tokens") { [settings.apiToken, settings.userName] }
        let request = reactor.computed("request") { "GET /cart HTTP/1.1\nAuthorization: \(authHeader.value)" }
        let isLoggedIn = reactor.computed("isLoggedIn", reveals: true) { !settings.apiToken.isEmpty }
        let total = reactor.computed("total") { cart.items.reduce(0) { $0 + $1.cents } }
        let greeting = reactor.computed("greeting") { "Hello \(settings.userName)" }
        let receiptText = reactor.computed("receiptText") { String(decoding: settings.receiptScan.value, as: UTF8.self) }
        let receiptBytes = reactor.computed("receiptBytes", reveals: true) { settings.receiptScan.value.count }

        let copier = reactor.autorun("copy header") { _ in session.header = "Bearer " + settings.apiToken }
        let authorizer = reactor.autorun("authorize cart") { _ in cart.authorize(settings.apiToken) }
        let signalled = reactor.signal("token signal") { settings.apiToken }.subscribe { session.lastSignalled = $0 }
        let everything = reactor.autorun("everything") { _ in
            _ = (request.value, credentials.value, tokens.value, isLoggedIn.value, total.value, greeting.value)
            _ = (receiptText.value.utf8.count, receiptBytes.value)
        }

        settings.userName = app.userNames[0]
        settings.apiToken = app.secrets[0]
        cart.add(Item(name: "tea", cents: 100_000))
        cart.add(Item(name: "scones", cents: 23_457))
        settings.userName = app.userNames[1]
        settings.apiToken = app.secrets[1]
        cart.add(Item(name: "jam", cents: 123_455))
        let huge = String(repeating: receiptMarker, count: 10 * 1024 * 1024 / receiptMarker.utf8.count)
        settings.receiptScan = Redacted(Array(huge.utf8) + [0xFF, 0xFE, 0xC3, 0x28] + Array(rawReceiptMarker.utf8))
        settings.apiToken = ""

        everything.stop()
        signalled.cancel()
        authorizer.stop()
        copier.stop()
        _ = TraceRecorder.stop()
        return app
    }
}
