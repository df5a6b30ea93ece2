// The staff audit trail (owners only): a filtered page of events, newest first, and the same filter
// as CSV. The export is itself recorded.
import {
  type AuditEvent,
  type AuditQuery,
  auditExportSchema,
  auditListSchema,
} from '../../core/schemas/audit.js';
import type { Requester, RequestOptions } from '../requester.js';

const PATH = '/api/flex/v1/admin/audit';

const queryOf = (query: AuditQuery) => ({
  action: query.action,
  actor: query.actor,
  from: query.from,
  to: query.to,
  before: query.before,
  limit: query.limit,
});

export function auditResource(http: Requester) {
  return {
    list(
      query: AuditQuery = {},
      options?: RequestOptions,
    ): Promise<{ Items: AuditEvent[]; more: boolean }> {
      return http.get(PATH, auditListSchema, { ...options, query: queryOf(query) });
    },
    exportCsv(
      query: Omit<AuditQuery, 'before' | 'limit'> = {},
      options?: RequestOptions,
    ): Promise<{ csv: string; rows: number }> {
      return http.get(`${PATH}/export`, auditExportSchema, { ...options, query: queryOf(query) });
    },
  };
}
