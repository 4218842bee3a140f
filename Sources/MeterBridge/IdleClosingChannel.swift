import HummingbirdCore
import Logging
import NIOCore

/// A connection of the meter bridge that reads nothing for `timeout` is closed, whatever state it is in.
///
/// Hummingbird's own idle timeout starts only once a request has been parsed, so a connection that sends half a
/// request, garbage, or a head too long for the parser (which then answers nothing) would be held until the
/// client closed it. NIO's IdleStateHandler, first in the pipeline, sees every read: a WebSocket viewer answers
/// the server's pings (every 15 s) and stays; a stalled or silent one goes.
struct IdleClosingChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let timeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let timeout = self.timeout
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandlers(IdleStateHandler(readTimeout: timeout), CloseWhenIdle())
        }.flatMap { base.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// Closes its channel on IdleStateHandler's event; passes everything else on.
final class CloseWhenIdle: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
