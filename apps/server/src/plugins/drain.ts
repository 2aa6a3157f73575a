import type { FastifyInstance } from 'fastify';

/**
 * Shutdown drains the connections too (issue 30 item 4). Closing, the server stops listening and closes its idle
 * keep-alive connections, but a request in flight at that moment would be answered keep-alive, and its connection
 * would then hold the shutdown until the client hangs up or SHUTDOWN_TIMEOUT_SECONDS ends it. So every answer sent
 * once closing has begun says `Connection: close`, and Node closes the connection after it.
 */
export function registerDrain(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
}
