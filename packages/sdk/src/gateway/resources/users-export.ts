// GET /api/admin/v1/users-export and /invitations-export: the admin tables' rows, filtered by the
// gateway and streamed as CSV or NDJSON, so a million rows never become one string on either side.
// Read as it arrives (no retries: a stream is not repeated half-way); failures map to the one
// hierarchy.

import type { InvitationsExportQuery, UsersExportQuery } from '../../core/schemas/export.js';
import { withoutTrailingSlashes } from '../../core/urls.js';
import { HttpError, NetworkError } from '../../errors.js';
import type { TokenSource } from '../requester.js';

export interface UsersExportOptions {
  baseUrl: string;
  auth?: TokenSource;
  fetch?: typeof fetch;
}

export interface UsersExport {
  /** The body, chunk by chunk: CSV with a header line, or one JSON row per line. */
  body: AsyncIterable<Uint8Array>;
}

export function usersExportResource(options: UsersExportOptions) {
  const baseUrl = withoutTrailingSlashes(options.baseUrl);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  async function exportRows(
    path: string,
    query: UsersExportQuery | InvitationsExportQuery,
    request: { signal?: AbortSignal },
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
      response = await fetchImpl(`${baseUrl}${path}?${params}`, {
        headers,
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      throw new NetworkError(`GET ${path}: ${(error as Error).message}`, {
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
    return { body: chunksOf(response.body) };
  }
  return {
    exportUsers: (query: UsersExportQuery, request: { signal?: AbortSignal } = {}) =>
      exportRows('/api/admin/v1/users-export', query, request),
    exportInvitations: (query: InvitationsExportQuery, request: { signal?: AbortSignal } = {}) =>
      exportRows('/api/admin/v1/invitations-export', query, request),
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
