// What a resource sees of the client: a call that names a path and the answer's schema and gets
// the parsed answer. The wire (auth, retries, timeouts, decryption, errors) stays in client.ts.
import type { z } from 'zod';
import type { HttpMethod } from '../internal/retry.js';

/** Where the client gets the id token; `createAuth()` is one. Null means no session. */
export interface TokenSource {
  getIdToken(): Promise<string | null>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface GatewayRequest<S extends z.ZodType> {
  /** Only repeatable requests are retried: see `isRepeatable` in retry.ts. */
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: S;
  /** Makes a POST safe to repeat: the gateway answers a repeated key with the first result. */
  idempotencyKey?: string;
  options?: RequestOptions;
}

export interface GatewayResponse<T> {
  data: T;
  status: number;
  headers: Record<string, string>;
}

/** What one resource method passes along: the caller's options, plus its query or key. */
export interface CallOptions extends RequestOptions {
  query?: Record<string, string | number | undefined>;
  /** Makes a POST safe to repeat: the gateway answers a repeated key with the first result. */
  idempotencyKey?: string;
}

/** A call that names only its path and the answer's schema, and gets the parsed answer. */
export type Call = <S extends z.ZodType>(
  path: string,
  schema: S,
  options?: CallOptions,
) => Promise<z.output<S>>;
/** The same with a JSON body. */
export type CallWithBody = <S extends z.ZodType>(
  path: string,
  schema: S,
  body?: unknown,
  options?: CallOptions,
) => Promise<z.output<S>>;

/** A streamed answer's body, chunk by chunk, once its status said it succeeded. */
export interface StreamedAnswer {
  body: AsyncIterable<Uint8Array>;
  headers: Record<string, string>;
}

export interface Requester {
  /**
   * A GET whose answer is read as it arrives, through the same transport, auth and error mapping;
   * the timeout bounds the wait for its headers. Not retried: a stream is not repeated half-way.
   */
  stream(path: string, accept: string, options?: CallOptions): Promise<StreamedAnswer>;
  /** The whole exchange, for the rare method that reads the status or headers too. */
  request<S extends z.ZodType>(request: GatewayRequest<S>): Promise<GatewayResponse<z.output<S>>>;
  get: Call;
  delete: Call;
  post: CallWithBody;
  put: CallWithBody;
}
