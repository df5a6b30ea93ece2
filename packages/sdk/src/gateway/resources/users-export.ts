// GET /api/admin/v1/users-export and /invitations-export: the admin tables' rows, filtered by the
// gateway and streamed as CSV or NDJSON, so a million rows never become one string on either side.
// Read as it arrives through the client's one transport (its auth, timeout and errors); not
// retried: a stream is not repeated half-way.
import type { InvitationsExportQuery, UsersExportQuery } from '../../core/schemas/export.js';
import type { Requester } from '../requester.js';

export interface UsersExport {
  /** The body, chunk by chunk: CSV with a header line, or one JSON row per line. */
  body: AsyncIterable<Uint8Array>;
}

export function usersExportResource(http: Requester) {
  async function exportRows(
    path: string,
    query: UsersExportQuery | InvitationsExportQuery,
    request: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<UsersExport> {
    const accept = query.format === 'ndjson' ? 'application/x-ndjson' : 'text/csv';
    const answer = await http.stream(path, accept, {
      ...request,
      query: Object.fromEntries(
        Object.entries(query).map(([name, value]) => [
          name,
          value === undefined ? undefined : String(value),
        ]),
      ),
    });
    return { body: answer.body };
  }
  return {
    exportUsers: (
      query: UsersExportQuery,
      request: { signal?: AbortSignal; timeoutMs?: number } = {},
    ) => exportRows('/api/admin/v1/users-export', query, request),
    exportInvitations: (
      query: InvitationsExportQuery,
      request: { signal?: AbortSignal; timeoutMs?: number } = {},
    ) => exportRows('/api/admin/v1/invitations-export', query, request),
  };
}
