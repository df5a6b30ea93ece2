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

/**
 * Sends one request and answers whatever status came back; rejects only when no answer arrived
 * (network failure, or `signal` aborted).
 */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

export function createFetchTransport(fetchImpl: typeof fetch = globalThis.fetch): Transport {
  return async (request) => {
    const response = await fetchImpl(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  };
}
