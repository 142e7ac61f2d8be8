/// An answer of the inspector: status, content type and body, before the
/// server adds its common headers.
package struct InspectorResponse: Sendable, Equatable {
    /// The HTTP status code.
    package var status: Int
    /// The `Content-Type`.
    package var contentType: String
    /// The body.
    package var body: [UInt8]

    package init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
