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

  app.addHook('onRequest', async (request) => {
    newest.set(request.raw.socket, request.raw);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (closing && newest.get(request.raw.socket) === request.raw)
      reply.header('connection', 'close');
    return payload;
  });
  // Fastify tells hook styles apart by their parameter count: an async abort hook takes one.
  const answered = async (_request: unknown) => {
    if (closing) app.server.closeIdleConnections();
  };
  app.addHook('onResponse', answered);
  app.addHook('onRequestAbort', answered);

  return {
    begin() {
      closing = true;
    },
  };
}
