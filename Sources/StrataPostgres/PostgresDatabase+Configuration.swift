import Foundation

extension PostgresDatabase {
    /// Where and how a ``PostgresDatabase`` connects: one or more hosts (tried in order for
    /// failover), the credentials, the database, TLS and the pool's limits.
    ///
    /// ```swift
    /// var configuration = try PostgresDatabase.Configuration(url: "postgres://app@10.0.0.1:5432,10.0.0.2:5432/shop")
    /// configuration.maximumConnections = 16
    /// let pg = try await PostgresDatabase(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// One server: a host name or IP address and a TCP port.
        public struct Host: Sendable, Hashable, CustomStringConvertible {
            /// The host name or IP address (IPv6 without brackets).
            public var host: String
            /// The TCP port.
            public var port: Int

            /// Creates a host; PostgreSQL's port 5432 unless given.
            public init(host: String, port: Int = 5432) {
                self.host = host
                self.port = port
            }

            /// `host:port`, with IPv6 addresses in brackets.
            public var description: String {
                host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            }
        }

        /// Whether and how the connection is encrypted (`sslmode` in a URL).
        public enum TLSMode: Sendable, Hashable {
            /// No TLS (`sslmode=disable`, the default).
            case disable
            /// TLS when the server offers it, verifying the certificate (`sslmode=prefer`).
            case prefer
            /// TLS or no connection, verifying the certificate (`sslmode=require`).
            case require
        }

        /// Which server a connection may use (`target_session_attrs` in a URL, libpq's spelling).
        /// (No raw values: postgres-nio gives every `RawRepresentable` public members of its own.)
        public enum TargetSessionAttributes: Sendable, Hashable {
            /// Only a server that accepts writes: one that is not in recovery (a primary). The default.
            case readWrite
            /// The first server that answers, primary or standby.
            case any
        }

        /// The servers, in the order they are tried. Writes go to the first one that is not in
        /// recovery; when a connection is lost the next ones are tried.
        public var hosts: [Host]
        /// The user name.
        public var username: String
        /// The password, if the server asks for one.
        public var password: String?
        /// The database; PostgreSQL uses the user name when nil.
        public var database: String?
        /// TLS.
        public var tls: TLSMode = .disable
        /// Which servers qualify.
        public var targetSessionAttributes: TargetSessionAttributes = .readWrite
        /// At most this many connections are open at once; more concurrent `read`/`write` calls wait.
        public var maximumConnections: Int = 8
        /// How long one connection attempt to one host may take.
        public var connectTimeout: Duration = .seconds(10)
        /// How long a `read` or `write` that needs a new connection keeps trying the hosts (with
        /// a growing pause between rounds, up to a second) before it fails with
        /// `StrataError.Kind.connection`: long enough for a standby to be promoted.
        /// A call that waits for a free connection (all ``maximumConnections`` in use) waits
        /// this long at most too, then fails with `StrataError.Kind.connection`.
        public var failoverTimeout: Duration = .seconds(30)
        /// How long one statement may take: the server's `statement_timeout` for every
        /// connection, so a statement that runs longer is cancelled by the server
        /// (`StrataError.Kind.postgres`, SQLSTATE `57014`) and the connection stays usable. A
        /// server that has not answered one second after that (frozen, unreachable, gone without
        /// closing the connection) fails the statement with `StrataError.Kind.connection`: the
        /// connection is closed and the pool opens a new one for the next call. It also bounds
        /// the start-up of a new connection, together with ``connectTimeout``. `query_timeout`
        /// (seconds) in a URL. `PostgresMigrator` lifts it on its connection: a migration may
        /// take long, and a second deploy waits for the first one's lock.
        public var queryTimeout: Duration = .seconds(30)
        /// How long an idle connection may go without a sign of life from the server before the
        /// system's TCP keepalive probes it (three probes, a few seconds apart); a connection
        /// whose server vanished is then closed while it waits in the pool, and the next call
        /// opens a new one instead of finding it dead.
        public var keepaliveIdle: Duration = .seconds(10)
        /// The clock of expiring rows (`expires: true`, docs/Expiry.md), as
        /// `Database.Configuration.now` is on SQLite: what "now" is for the generated
        /// `<Record>PostgresDAO`s' reads, which leave out rows whose `expiresAt` is not after
        /// it, for `expiresIn:` inserts and for `purgeExpired`. The system clock by default
        /// (the app's, not the server's); tests set a clock they control.
        ///
        /// ```swift
        /// var configuration = try PostgresDatabase.Configuration(url: "postgres://app@127.0.0.1/shop")
        /// configuration.now = { Date(timeIntervalSince1970: 1_800_000_000) }
        /// ```
        public var now: @Sendable () -> Date = { Date() }

        /// Creates a configuration from its parts.
        public init(hosts: [Host], username: String, password: String? = nil, database: String? = nil) {
            self.hosts = hosts
            self.username = username
            self.password = password
            self.database = database
        }

        /// Parses a libpq-style URL: `postgres://user:password@host1:port1,host2:port2/database?sslmode=disable`
        /// (`postgresql://` too). Query parameters understood: `sslmode` (`disable`, `prefer`,
        /// `require`), `target_session_attrs` (`read-write`, `any`), `connect_timeout` (seconds),
        /// `query_timeout` (seconds, ``queryTimeout``), `pool_max` (connections). Anything else is an error, so a typo does not pass silently.
        public init(url: String) throws {
            self = try URLParser.parse(url)
        }

        /// Combines several URLs that differ only in their hosts (one server each, say) into one
        /// configuration whose hosts are all of theirs, in order.
        public init(urls: [String]) throws {
            guard let first = urls.first else {
                throw StrataError.misuse("PostgresDatabase needs at least one URL")
            }
            var combined = try URLParser.parse(first)
            for url in urls.dropFirst() {
                let next = try URLParser.parse(url)
                guard next.username == combined.username, next.database == combined.database else {
                    throw StrataError.misuse(
                        "the URLs of one PostgresDatabase must name the same user and database; \(Self.redacted(url)) differs from \(Self.redacted(first))")
                }
                combined.hosts += next.hosts.filter { !combined.hosts.contains($0) }
            }
            self = combined
        }

        /// `url` with its password replaced by `***`, for messages.
        static func redacted(_ url: String) -> String {
            guard let at = url.range(of: "@"), let scheme = url.range(of: "://"), scheme.upperBound < at.lowerBound else { return url }
            let userInfo = url[scheme.upperBound..<at.lowerBound]
            guard let colon = userInfo.firstIndex(of: ":") else { return url }
            return String(url[..<userInfo.index(after: colon)]) + "***" + String(url[at.lowerBound...])
        }
    }
}

/// The URL grammar of ``PostgresDatabase/Configuration/init(url:)``.
enum URLParser {
    static func parse(_ url: String) throws -> PostgresDatabase.Configuration {
        func refuse(_ reason: String) -> StrataError {
            StrataError.misuse(
                "\(PostgresDatabase.Configuration.redacted(url)) is not a PostgreSQL URL: \(reason); write postgres://user@host:5432/database")
        }
        var rest = Substring(url)
        guard let scheme = rest.range(of: "://") else { throw refuse("it has no scheme") }
        guard ["postgres", "postgresql"].contains(rest[..<scheme.lowerBound].lowercased()) else {
            throw refuse("the scheme is not postgres://")
        }
        rest = rest[scheme.upperBound...]
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        var database: String?
        if let slash = rest.firstIndex(of: "/") {
            let name = try decode(rest[rest.index(after: slash)...], refuse)
            database = name.isEmpty ? nil : name
            rest = rest[..<slash]
        }
        var username = ""
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                username = try decode(userInfo[..<colon], refuse)
                password = try decode(userInfo[userInfo.index(after: colon)...], refuse)
            } else {
                username = try decode(userInfo, refuse)
            }
            rest = rest[rest.index(after: at)...]
        }
        guard !username.isEmpty else { throw refuse("it names no user") }
        var hosts: [PostgresDatabase.Configuration.Host] = []
        for part in rest.split(separator: ",", omittingEmptySubsequences: false) {
            hosts.append(try host(part, refuse))
        }
        var configuration = PostgresDatabase.Configuration(hosts: hosts, username: username, password: password, database: database)
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try decode(parts[0], refuse)
            let value = parts.count > 1 ? try decode(parts[1], refuse) : ""
            switch key {
            case "sslmode":
                switch value {
                case "disable": configuration.tls = .disable
                case "prefer": configuration.tls = .prefer
                case "require": configuration.tls = .require
                default: throw refuse("sslmode=\(value) is not one of disable, prefer, require")
                }
            case "target_session_attrs":
                switch value {
                case "read-write": configuration.targetSessionAttributes = .readWrite
                case "any": configuration.targetSessionAttributes = .any
                default: throw refuse("target_session_attrs=\(value) is not one of read-write, any")
                }
            case "connect_timeout":
                guard let seconds = Int(value), seconds > 0 else { throw refuse("connect_timeout=\(value) is not a positive number of seconds") }
                configuration.connectTimeout = .seconds(seconds)
            case "query_timeout":
                guard let seconds = Int(value), seconds > 0 else { throw refuse("query_timeout=\(value) is not a positive number of seconds") }
                configuration.queryTimeout = .seconds(seconds)
            case "pool_max":
                guard let count = Int(value), count > 0 else { throw refuse("pool_max=\(value) is not a positive number") }
                configuration.maximumConnections = count
            default:
                throw refuse("the parameter \(key) is not supported (sslmode, target_session_attrs, connect_timeout, query_timeout, pool_max are)")
            }
        }
        return configuration
    }

    private static func host(
        _ text: Substring, _ refuse: (String) -> StrataError
    ) throws -> PostgresDatabase.Configuration.Host {
        var name: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw refuse("the IPv6 address \(text) lacks its ]") }
            name = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw refuse("\(text) is not host:port") }
        } else if let colon = text.lastIndex(of: ":") {
            name = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            name = text
        }
        guard !name.isEmpty else { throw refuse("a host is empty") }
        var port = 5432
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else { throw refuse("the port \(portText) is not a number from 1 to 65535") }
            port = value
        }
        return PostgresDatabase.Configuration.Host(host: try decode(name, refuse), port: port)
    }

    private static func decode(_ text: Substring, _ refuse: (String) -> StrataError) throws -> String {
        guard let decoded = String(text).removingPercentEncoding else { throw refuse("\(text) has a malformed %-escape") }
        return decoded
    }
}
