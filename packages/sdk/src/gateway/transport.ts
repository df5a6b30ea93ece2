// How the gateway client puts bytes on the wire: a one-function interface, and the `fetch`
// transport that works in browsers and Node alike (Node callers can use the undici pool instead).

export interface TransportRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** An answer whose body is read as it arrives (the exports), so it never becomes one string. */
export interface StreamedResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
}

/**
 * Sends one request and answers whatever status came back; rejects only when no answer arrived
 * (network failure, or `signal` aborted). `stream`, where the transport has it, answers as soon as
 * the headers arrive; a transport without it answers the whole body as one chunk.
 */
export type Transport = ((request: TransportRequest) => Promise<TransportResponse>) & {
  stream?: (request: TransportRequest) => Promise<StreamedResponse>;
};

export function createFetchTransport(fetchImpl: typeof fetch = globalThis.fetch): Transport {
  const send = (request: TransportRequest) =>
    fetchImpl(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
  const transport: Transport = async (request) => {
    const response = await send(request);
    return { status: response.status, headers: headersOf(response), body: await response.text() };
  };
  transport.stream = async (request) => {
    const response = await send(request);
    return {
      status: response.status,
      headers: headersOf(response),
      body: response.body ? chunksOf(response.body) : chunksOf(new Blob([]).stream()),
    };
  };
  return transport;
}

function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  return headers;
}

/** A fetch body as an async iterable, in runtimes whose ReadableStream is not one itself. */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
