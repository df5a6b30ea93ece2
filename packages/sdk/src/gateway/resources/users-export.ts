// GET /api/admin/v1/users-export: the admin table's rows, filtered by the gateway and streamed as
// CSV or NDJSON, so a quarter of a million rows never become one string on either side. Read as
// it arrives (no retries: a stream is not repeated half-way); failures map to the one hierarchy.

import type { UsersExportQuery } from '../../core/schemas/export.js';
import { HttpError, NetworkError } from '../../errors.js';
import type { TokenSource } from '../client.js';

export interface UsersExportOptions {
  baseUrl: string;
  auth?: TokenSource;
  fetch?: typeof fetch;
}

export interface UsersExport {
  /** Rows the filters kept, from the `x-total-count` header. */
  total: number;
  /** The body, chunk by chunk. */
  body: AsyncIterable<Uint8Array>;
}

export function usersExportResource(options: UsersExportOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    async exportUsers(
      query: UsersExportQuery,
      request: { signal?: AbortSignal } = {},
    ): Promise<UsersExport> {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        if (value !== undefined) params.set(name, String(value));
      }
      const headers: Record<string, string> = {
        accept: query.format === 'ndjson' ? 'application/x-ndjson' : 'text/csv',
      };
      const token = options.auth ? await options.auth.getIdToken() : null;
      if (token) headers.authorization = token;
      let response: Response;
      try {
        response = await fetchImpl(`${baseUrl}/api/admin/v1/users-export?${params}`, {
          headers,
          ...(request.signal ? { signal: request.signal } : {}),
        });
      } catch (error) {
        throw new NetworkError(`GET /api/admin/v1/users-export: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name.toLowerCase()] = value;
      });
      if (!response.ok || !response.body) {
        const text = await response.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        throw HttpError.fromResponse(response.status, body, responseHeaders);
      }
      return {
        total: Number(responseHeaders['x-total-count'] ?? 0),
        body: chunksOf(response.body),
      };
    },
  };
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
