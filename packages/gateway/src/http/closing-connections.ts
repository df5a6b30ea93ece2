// Ends kept-alive connections as the server closes, without dropping a request it accepted. Node's
// close reaps only the connections idle at that moment; one busy then (a slow answer, requests
// pipelined behind it) would stay open after its last answer until its keep-alive timeout ran out,
// holding the close open. Once `begin()` is called, the last answer a connection owes says
// `Connection: close`, and a connection left idle after an answer is closed.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function closeConnectionsOnClose(app: FastifyInstance): { begin(): void } {
  let closing = false;
  // The newest request each connection has sent. Pipelined requests are handled at once, so a later
  // answer can be ready before an earlier one has finished writing; "the last answer owed" is the
  // answer to the newest request, whatever order the handlers end in.
  const newest = new WeakMap<Socket, object>();

  // Hooks that call `done` rather than return a promise: they run on every request, and each
  // promise Fastify waits on costs a turn of the microtask queue.
  app.addHook('onRequest', (request, _reply, done) => {
    newest.set(request.raw.socket, request.raw);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing && newest.get(request.raw.socket) === request.raw)
      reply.header('connection', 'close');
    done(null, payload);
  });
  const answered = (done: () => void) => {
    if (closing) app.server.closeIdleConnections();
    done();
  };
  app.addHook('onResponse', (_request, _reply, done) => answered(done));
  app.addHook('onRequestAbort', (_request, done) => answered(done));

  return {
    begin() {
      closing = true;
    },
  };
}
