import Testing
import ReactorCore

private final class Person {
    @Reactive var age = 0
    @Reactive var name = "Ada"
    @Reactive var tags = Opaque(count: 0)
}

/// Not `Equatable`: every write invalidates.
private struct Opaque { var count: Int }

/// Can replace its property's wrapper, dropping the storage a write is using.
private final class Resettable {
    @Reactive var value = 0

    func reset() { _value = Reactive(wrappedValue: -1) }
}

@Suite struct ReactiveTests {
    @Test func readsInsideAnAutorunDependAndWritesRerun() {
        let reactor = Reactor()
        let person = Person()
        var seen: [Int] = []
        reactor.autorun { _ in seen.append(person.age) }
        person.age = 1
        person.age = 2
        person.name = "Grace"  // not read
        #expect(seen == [0, 1, 2])
        #expect(person.$age.projectedDependency.hasDependents)
        #expect(!person.$name.projectedDependency.hasDependents)
    }

    @Test func readsOutsideAComputationDoNotDepend() {
        let person = Person()
        #expect(person.age == 0)
        #expect(!person.$age.projectedDependency.hasDependents)
    }

    @Test func autoNamedOwnerProperty() {
        let person = Person()
        _ = person.age
        person.name = "Grace"
        #expect(person.$age.projectedDependency.name == "Person.age")
        #expect(person.$name.projectedDependency.name == "Person.name")
    }

    @Test func equalWriteOfAnEquatableValueInvalidatesNothing() {
        let reactor = Reactor()
        let person = Person()
        var runs = 0
        reactor.autorun { _ in _ = person.age; runs += 1 }
        person.age = 0
        #expect(runs == 1)
        person.age = 1
        person.age = 1
        #expect(runs == 2)
    }

    @Test func writeOfANonEquatableValueAlwaysInvalidates() {
        let reactor = Reactor()
        let person = Person()
        var runs = 0
        reactor.autorun { _ in _ = person.tags; runs += 1 }
        person.tags = Opaque(count: 0)
        person.tags = Opaque(count: 0)
        #expect(runs == 3)
    }

    @Test func anOnInvalidateCallbackMayReplaceTheWrapperBeingWritten() {
        let reactor = Reactor()
        let owner = Resettable()
        var seen: [Int] = []
        reactor.autorun { _ in
            seen.append(owner.value)
            if seen.count == 1 { reactor.onInvalidate { _ in owner.reset() } }
        }
        owner.value = 1  // the callback runs inside the write and drops its storage
        #expect(seen == [0, -1])
        owner.value = 2
        #expect(seen == [0, -1, 2])
    }

    @Test func anAutorunMayReplaceTheWrapperWhoseWriteItRerunsAfter() {
        let reactor = Reactor()
        let owner = Resettable()
        var seen: [Int] = []
        reactor.autorun { _ in
            if owner.value == 1 { owner.reset() }  // in the flush that ends the write
            seen.append(owner.value)
        }
        owner.value = 1
        #expect(seen == [0, -1])
        owner.value = 2
        #expect(seen == [0, -1, 2])
    }

    @Test func reRunCollectsDependenciesAfresh() {
        let reactor = Reactor()
        let person = Person()
        var runs = 0
        reactor.autorun { _ in
            runs += 1
            if person.age == 0 { _ = person.name }
        }
        person.age = 1  // no longer reads name
        #expect(runs == 2)
        person.name = "Grace"
        #expect(runs == 2)
        #expect(!person.$name.projectedDependency.hasDependents)
    }
}
