// The load bench's one send, shared by the load generator and the gateway it runs (which must not
// import each other: importing load-gateway.ts starts a gateway).

/** Its text tells the send's messages from sign-in codes and alerts in the outbox. */
export const LOAD_SEND_MESSAGE = 'Blocks are open this afternoon.';
