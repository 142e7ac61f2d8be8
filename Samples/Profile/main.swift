// ReactiveCocoa's username pipeline in Swift: a text field's signal bound to a
// profile's username; the username's stream, without repeats, first three
// values only, filtered for "joshaber", greets; a label autorun and a
// key-path binding show the name. Then the user logs in: the password field
// and the session token are redacted, and so is the password passed to the
// login action, so no trace ever holds them.
//
//   profile [--trace PATH] [--trace-values N]
//
// Prints one JSON line with the reruns, writes and greetings it counted itself.
import Foundation
import ReactorCore
import ReactorTrace
import SampleSupport

/// The model: a username other parts of the app observe.
final class Profile {
    let username = ReactiveProperty(initialValue: "", name: "Profile.username")
}

/// The login: the user's name and a token no trace may hold.
final class Session: Store, @unchecked Sendable {
    // @unchecked Sendable: its state is @Reactive, guarded by the graph lock.
    @Reactive var user = ""
    @Reactive(redacted: true) var token = ""

    func login(_ user: String, _ password: Redacted<String>) {
        action(user, password) {
            self.user = user
            token = "session-\(password.value)"
        }
    }
}

/// Stands in for a view's label.
final class Label {
    var text = ""
}

var commandLine = SampleCommandLine(program: "profile", usage: "[--trace PATH] [--trace-values N]")
while let option = commandLine.nextOption() { commandLine.rejectUnknown(option) }
commandLine.startTracing()

/// What the sample counts of its own work.
final class Tally {
    var greetings = 0
    var labelReruns = 0
    var typed = 0
    var passwordWrites = 0
}

let tally = Tally()
let profile = Profile()
let usernameField = PassthroughSubject<String>(name: "usernameField")   // the text field's text, as RAC's rac_textSubscribable
let nameLabel = Label()
let shoutLabel = Label()

// rac_bind(self.username, to: usernameField.rac_textSubscribable)
let fieldBinding = usernameField.signal.bind(to: profile.username)
// [[[[RACAbleSelf(self.username) distinctUntilChanged] take:3] where:…] subscribeNext:…]
let greeting = profile.username.asStream()
    .distinctUntilChanged()
    .take(3)
    .filter { $0 == "joshaber" }
    .subscribe(next: { _ in tally.greetings += 1 })
// A label that follows the username through an autorun…
let labelAutorun = Reactor.shared.autorun("usernameLabel") { computation in
    nameLabel.text = profile.username.value
    if !computation.isFirstRun { tally.labelReruns += 1 }
}
// …and one bound to it through a key path.
let shoutBinding = profile.username.asStream().map { $0.uppercased() }.bind(to: shoutLabel, \.text)

for text in ["josh", "josh", "joshaber", "joshaber", "jsmith", "joshaber", "josh"] {
    usernameField.send(text)   // each send writes the bound username once
    tally.typed += 1
}
usernameField.sendCompleted()

// The password field holds a secret: written as ‹redacted› in traces with values.
let passwordField = ReactiveProperty(initialValue: "", name: "LoginForm.password", redacted: true)
passwordField.value = "swordfish"
tally.passwordWrites += 1
let session = Session()
session.login(profile.username.value, Redacted(passwordField.value))

TraceRecorder.stop()
labelAutorun.stop()
for subscription in [fieldBinding, greeting, shoutBinding] { subscription.cancel() }
print(#"{"sample":"profile","reruns":{"usernameLabel":\#(tally.labelReruns)},"#
      + #""writes":\#(tally.typed + tally.passwordWrites),"#
      + #""sends":\#(tally.typed),"greetings":\#(tally.greetings),"label":"\#(nameLabel.text)","shout":"\#(shoutLabel.text)"}"#)
