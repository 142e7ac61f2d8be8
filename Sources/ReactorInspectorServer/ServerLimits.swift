/// What one client of `serve` may hold: connections, bytes of a request head
/// and time. A client past a limit is answered (431, 503) or closed; the
/// others go on being served (docs/SERVE.md, *Limits*).
package struct ServerLimits: Sendable {
    /// Connections open at once. At the cap, a new connection closes the one
    /// that has waited longest without sending a whole request; when every
    /// one is busy (event streams, answers being made), the new one gets 503.
    package var maxConnections: Int
    /// Bytes of a request line and its headers together; more is 431 and close.
    package var maxHeadBytes: Int
    /// Seconds a connection may stay silent before its next request begins.
    package var idleTimeout: Double
    /// Seconds from a request's first byte to the end of its headers (a slow sender is closed).
    package var headTimeout: Double
    /// Seconds one write of an answer may wait for a client that does not read.
    package var writeTimeout: Double

    package init(maxConnections: Int = 1000, maxHeadBytes: Int = 16 * 1024, idleTimeout: Double = 15,
                 headTimeout: Double = 10, writeTimeout: Double = 30) {
        self.maxConnections = max(1, maxConnections)
        self.maxHeadBytes = max(256, maxHeadBytes)
        self.idleTimeout = idleTimeout
        self.headTimeout = headTimeout
        self.writeTimeout = writeTimeout
    }

    /// How often deadlines are checked: a quarter of the shortest, between 50 ms and 500 ms.
    var sweepInterval: Double {
        min(max(min(idleTimeout, headTimeout, writeTimeout) / 4, 0.05), 0.5)
    }
}
