/// Counts effect runs (the JS cases' `callCounter`), shared by a case's effects.
final class EffectCounter {
    var runs = 0
}
