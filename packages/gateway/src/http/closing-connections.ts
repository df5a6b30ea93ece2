// Ends kept-alive connections as the server closes, without dropping a request it accepted. Node's
// close reaps only the connections idle at that moment; one busy then (a slow answer, requests
// pipelined behind it) would stay open after its last answer until its keep-alive timeout ran out,
// holding the close open. Once `begin()` is called, the last answer a connection owes says
// `Connection: close`, and a connection left idle after an answer is closed.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function closeConnectionsOnClose(app: FastifyInstance): { begin(): void } {
  let closing = false;
  // Requests each connection has sent and not yet been answered (pipelined ones included).
  const owed = new WeakMap<Socket, number>();
  const settle = (socket: Socket) => {
    const left = (owed.get(socket) ?? 1) - 1;
    if (left > 0) owed.set(socket, left);
    else owed.delete(socket);
  };

  app.addHook('onRequest', async (request) => {
    const socket = request.raw.socket;
    owed.set(socket, (owed.get(socket) ?? 0) + 1);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (closing && owed.get(request.raw.socket) === 1) reply.header('connection', 'close');
    return payload;
  });
  const answered = async (request: { raw: { socket: Socket } }) => {
    settle(request.raw.socket);
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
