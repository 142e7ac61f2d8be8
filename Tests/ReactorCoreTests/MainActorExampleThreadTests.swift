import ReactorCore
import Testing

// The README's "From the main actor and from tasks" example, compiled and run.

final class Cart: Sendable {
    let prices = ReactiveProperty<[Int]>(initialValue: [], name: "Cart.prices")
    var total: Int { prices.value.reduce(0, +) }
}

@MainActor final class CartScreen {
    let cart: Cart
    let reactor: Reactor
    private(set) var totalText = ""
    private var watching: Task<Void, Never>?

    init(cart: Cart, reactor: Reactor) {
        self.cart = cart
        self.reactor = reactor
        watching = Task { [weak self] in            // on the main actor, like the screen
            for await total in reactor.changes({ cart.total }) {
                self?.totalText = "Total: \(total)"
            }
        }
    }

    func add(_ price: Int) async {
        let cart = cart
        await reactor.write { cart.prices.value.append(price) }   // off the main actor
    }

    func close() {
        watching?.cancel()                          // stops the autorun behind `changes`
    }
}

@Suite struct MainActorExampleThreadTests {
    @Test @MainActor func theScreenShowsEachNewTotal() async {
        let screen = CartScreen(cart: Cart(), reactor: Reactor())
        await screen.add(3)
        await screen.add(4)
        // The loop runs on the main actor, which this test holds between its awaits:
        // give it turns until it has shown the last total.
        var turns = 0
        while screen.totalText != "Total: 7" && turns < 100_000 {
            await Task.yield()
            turns += 1
        }
        #expect(screen.totalText == "Total: 7")
        screen.close()
    }
}
