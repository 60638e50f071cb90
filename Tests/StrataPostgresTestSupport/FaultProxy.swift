import Foundation
import StrataPostgres
import Synchronization

/// A TCP proxy on loopback in front of a PostgreSQL server that can go silent on command: the
/// network failures a test cannot get from the server itself.
///
/// - ``cutOnNext(_:deliver:)``: the next client message that contains a marker (`COMMIT`) is
///   delivered to the server or dropped, and from then on that connection is a black hole in
///   both directions (no answer, no close): a host that vanished at that exact moment.
/// - ``blackHole()``: every connection, open or new, goes silent (a partitioned host).
///
/// ```swift
/// let proxy = try await FaultProxy(targetPort: server.port)
/// defer { proxy.close() }
/// let pg = try await PostgresDatabase(url: "postgres://strata@127.0.0.1:\(proxy.port)/postgres")
/// ```
public final class FaultProxy: Sendable {
    /// The loopback port the proxy listens on.
    public let port: Int
    private let listener: any Channel
    private let state: Shared

    /// What every connection of the proxy consults.
    final class Shared: Sendable {
        let mutex = Mutex(State())
        func withLock<R>(_ body: (inout State) -> R) -> R { mutex.withLock { body(&$0) } }
    }

    struct State {
        var marker: [UInt8]?
        var deliverMarked = true
        var silent = false
        var channels: [ObjectIdentifier: any Channel] = [:]
    }

    /// Listens on a free loopback port and forwards every connection to `targetPort`.
    public init(targetPort: Int) async throws {
        let state = Shared()
        self.state = state
        let group = MultiThreadedEventLoopGroup.singleton
        listener = try await ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelInitializer { client in
                let link = Link(state: state)
                return ClientBootstrap(group: client.eventLoop)
                    .connect(host: "127.0.0.1", port: targetPort)
                    .flatMap { server in
                        link.register(client: client, server: server)
                        return server.pipeline.addHandler(Forward(link: link, fromClient: false)).flatMap {
                            client.pipeline.addHandler(Forward(link: link, fromClient: true))
                        }.map {
                            client.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
                        }
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = listener.localAddress?.port ?? 0
    }

    /// The next client message containing `marker` goes to the server (`deliver`) or not, and
    /// its connection then goes silent both ways.
    public func cutOnNext(_ marker: String, deliver: Bool) {
        state.withLock {
            $0.marker = Array(marker.utf8)
            $0.deliverMarked = deliver
        }
    }

    /// Every connection, open or new, goes silent: nothing is forwarded, nothing is closed.
    public func blackHole() {
        state.withLock { $0.silent = true }
    }

    /// Forwards again (connections cut before stay silent).
    public func restore() {
        state.withLock {
            $0.silent = false
            $0.marker = nil
        }
    }

    /// Stops listening and closes every connection.
    public func close() {
        listener.close(promise: nil)
        for channel in state.withLock({ Array($0.channels.values) }) { channel.close(promise: nil) }
    }

    /// The two channels of one proxied connection and whether it was cut.
    final class Link: @unchecked Sendable {
        let state: Shared
        private let lock = NSLock()
        private var client: (any Channel)?
        private var server: (any Channel)?
        private var cut = false

        init(state: Shared) { self.state = state }

        func register(client: any Channel, server: any Channel) {
            lock.withLock {
                self.client = client
                self.server = server
            }
            state.withLock {
                $0.channels[ObjectIdentifier(client)] = client
                $0.channels[ObjectIdentifier(server)] = server
            }
        }

        /// Where `data` goes: to the other side, or nowhere.
        func forward(_ data: ByteBuffer, fromClient: Bool) {
            var send = true
            let target: (any Channel)? = state.withLock { shared in
                lock.withLock {
                    if cut || shared.silent {
                        send = false
                        return nil
                    }
                    if fromClient, let marker = shared.marker, data.readableBytesView.firstRange(of: marker) != nil {
                        // This connection takes the marker: no other one does.
                        cut = true
                        send = shared.deliverMarked
                        shared.marker = nil
                    }
                    return fromClient ? server : client
                }
            }
            if send { target?.writeAndFlush(data, promise: nil) }
        }

        /// One side closed: the other follows, unless the connection went silent.
        func closed() {
            let targets: [(any Channel)?] = state.withLock { shared in
                lock.withLock { shared.silent || cut ? [] : [client, server] }
            }
            for channel in targets { channel?.close(promise: nil) }
        }
    }

    final class Forward: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let link: Link
        let fromClient: Bool

        init(link: Link, fromClient: Bool) {
            self.link = link
            self.fromClient = fromClient
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            link.forward(unwrapInboundIn(data), fromClient: fromClient)
        }

        func channelInactive(context: ChannelHandlerContext) {
            link.closed()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
