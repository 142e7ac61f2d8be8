import Synchronization
import Testing
import ReactorCore
import TracerSlot

/// Collects the sites the core sends (other suites' too: tests filter by node and line).
final class SiteTracer: IgnoringTracer {
    struct Site: Equatable { var node: UInt64; var site: String; var isActionCall: Bool }
    private let recorded = Mutex<[Site]>([])
    var sites: [Site] { recorded.withLock { $0 } }

    func site(_ node: UInt64, site: String, isActionCall: Bool) {
        recorded.withLock { $0.append(Site(node: node, site: site, isActionCall: isActionCall)) }
    }
}

private final class SiteStore: Store, @unchecked Sendable {
    @Reactive var count = 0
    init() { super.init(name: "SiteStore") }; static let creationLine = #line
    func bump() { action { count += 1 } }; static let actionCallLine = #line
}

// Members of the serialized `TracerTests` suite (they install the process-wide tracer).
extension TracerTests {
    @Test func creatingFunctionsAndActionsSendTheirSiteOnce() {
        let tracer = SiteTracer()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let reactor = Reactor()
        let file = "ReactorCoreTests/TraceSiteTests.swift"
        let store = SiteStore()
        let autorun = reactor.autorun { _ in }; let autorunLine = #line
        let computed = reactor.computed { 1 }; let computedLine = #line
        let subscription = store.subscribe { _ in }; let subscribeLine = #line
        store.bump()
        store.bump()
        let sites = tracer.sites
        #expect(sites.contains(.init(node: autorun.id, site: "\(file):\(autorunLine)", isActionCall: false)))
        #expect(sites.filter { !$0.isActionCall && $0.site == "\(file):\(computedLine)" }.count == 1)
        #expect(sites.contains(.init(node: store.traceID, site: "\(file):\(SiteStore.creationLine)", isActionCall: false)))
        #expect(sites.filter { $0.site == "\(file):\(subscribeLine)" }.count == 1)
        #expect(sites.filter { $0.isActionCall && $0.node == store.traceID } == [.init(node: store.traceID, site: "\(file):\(SiteStore.actionCallLine)", isActionCall: true),
                                                     .init(node: store.traceID, site: "\(file):\(SiteStore.actionCallLine)", isActionCall: true)])
        _ = computed.value
        subscription.cancel()
        autorun.stop()
    }
}

extension TracerTests {
    @Test func bindingsSendTheirSiteOncePerSubscriber() {
        let tracer = SiteTracer()
        ReactorTracing.install(tracer)
        defer { ReactorTracing.install(nil) }
        let file = "ReactorCoreTests/TraceSiteTests.swift"
        let source = PassthroughSubject<String>(name: "siteSource")
        let property = ReactiveProperty(initialValue: "")
        let label = Label()
        var bindings: [Subscription] = []
        for _ in 0..<2 { bindings.append(source.signal.bind(to: property)) }; let propertyLine = #line
        let keyPathBinding = source.signal.bind(to: label, \.text); let keyPathLine = #line
        source.send("a")
        source.send("b")
        #expect(property.value == "b" && label.text == "b")
        let propertySites = tracer.sites.filter { $0.site == "\(file):\(propertyLine)" }
        #expect(propertySites.count == 2)
        #expect(propertySites.allSatisfy { !$0.isActionCall && $0.node != 0 })
        #expect(Set(propertySites.map(\.node)).count == 2)
        let keyPathSites = tracer.sites.filter { $0.site == "\(file):\(keyPathLine)" }
        #expect(keyPathSites.count == 1 && keyPathSites.allSatisfy { !$0.isActionCall && $0.node != 0 })
        bindings.forEach { $0.cancel() }
        keyPathBinding.cancel()
    }
}
