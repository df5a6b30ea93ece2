// The audit trail for owners: a filtered page of staff actions, newest first, and the same filter
// exported as CSV (itself recorded as an export, though it is a GET).
import {
  AUDIT_CSV_HEADER,
  AUDIT_EXPORT_MAX_ROWS,
  auditCsvLine,
  auditExportSchema,
  auditListSchema,
  auditQuerySchema,
} from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noteAudit } from '../http/audit.js';
import { invalid } from '../http/errors.js';
import { type AuditFilter, listAuditEvents } from '../storage/audit-events.js';
import type { Queryable } from '../storage/db.js';

const DAY_MS = 24 * 3600_000;
const exportQuerySchema = auditQuerySchema.omit({ before: true, limit: true });

/** The query's days as epoch ms (UTC days), refused when the range runs backwards. */
function filterOf(query: {
  action?: AuditFilter['action'];
  actor?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}): AuditFilter {
  const fromTs = query.from === undefined ? undefined : Date.parse(`${query.from}T00:00:00Z`);
  const toTs = query.to === undefined ? undefined : Date.parse(`${query.to}T00:00:00Z`) + DAY_MS;
  if (fromTs !== undefined && Number.isNaN(fromTs)) {
    throw invalid('from', `${query.from} is not a day; use YYYY-MM-DD.`);
  }
  if (toTs !== undefined && Number.isNaN(toTs)) {
    throw invalid('to', `${query.to} is not a day; use YYYY-MM-DD.`);
  }
  if (fromTs !== undefined && toTs !== undefined && toTs <= fromTs) {
    throw invalid('to', `${query.to} is before from (${query.from}); swap them.`);
  }
  return { action: query.action, actor: query.actor, fromTs, toTs };
}

export function registerAuditRoutes(app: FastifyInstance, deps: { db: Queryable }): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const PATH = '/api/flex/v1/admin/audit';

  api.get(
    PATH,
    {
      config: { auth: 'owner' },
      schema: { querystring: auditQuerySchema, response: { 200: auditListSchema } },
    },
    async (request) => {
      const { before, limit = 50, ...rest } = request.query;
      const events = await listAuditEvents(
        deps.db,
        { ...filterOf(rest), beforeId: before },
        limit + 1,
      );
      return { Items: events.slice(0, limit), more: events.length > limit };
    },
  );

  api.get(
    `${PATH}/export`,
    {
      config: { auth: 'owner', audit: 'export.audit' },
      schema: { querystring: exportQuerySchema, response: { 200: auditExportSchema } },
    },
    async (request) => {
      const events = await listAuditEvents(deps.db, filterOf(request.query), AUDIT_EXPORT_MAX_ROWS);
      noteAudit(request, { detail: { filter: request.query, rows: events.length } });
      return { csv: AUDIT_CSV_HEADER + events.map(auditCsvLine).join(''), rows: events.length };
    },
  );
}
