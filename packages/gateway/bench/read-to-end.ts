/**
 * Reads an answer's body to its end and drops it, as a client that uses the answer does. undici's
 * `body.dump()` reads at most 128 KiB and then closes the connection: on a large answer a bench
 * would time a partial answer and open a new connection for every request.
 */
export async function readToEnd(body: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of body) {
    // Dropped: only the time and the connection's reuse matter.
  }
}
