// GET /api/admin/v1/users-export and /api/admin/v1/invitations-export: the admin tables' rows with
// the same filters and search the tables and the CLI apply, answered as CSV (text/csv) or NDJSON in
// chunks. Users are read from the database a page at a time and each page is written before the
// next is read, so a million rows never sit in memory on either side; the socket's backpressure
// paces the reads. The row format is the SDK's exportRow, the CLI's own.
import { Readable } from 'node:stream';
import {
  EXPORT_CSV_HEADER,
  type ExportedRow,
  type ExportFormat,
  exportCsvLine,
  filterAudience,
  filterInvitees,
  invitationsExportQuerySchema,
  localTimeZone,
  mergeInvitees,
  normalizePhone,
  searchRecipients,
  usersExportQuerySchema,
} from '@blockcatch/sdk';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noteAudit } from '../http/audit.js';
import { forbidden } from '../http/errors.js';
import type { Db } from '../storage/db.js';
import { listInvitations } from '../storage/invitations.js';
import { flexUsersByPhone, usersTablePages } from '../storage/users.js';

/** Rows per database page: big enough that the per-page cost vanishes, small enough to start at once. */
const EXPORT_PAGE_ROWS = 5000;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

export function registerUsersExport(app: FastifyInstance, db: Db): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/admin/v1/users-export',
    {
      config: { auth: 'admin', audit: 'export.users' },
      schema: { querystring: usersExportQuerySchema },
    },
    async (request, reply) => {
      const { product, format, search, timeZone: zone, ...filters } = request.query;
      noteAudit(request, { detail: { query: request.query } });
      const billingDetails = request.principal.user.can_see_billing;
      if (filters.selectedReferral && !billingDetails) {
        throw forbidden('The referral filter needs the billing-details permission.');
      }
      const timeZone = zone ?? localTimeZone();
      async function* kept() {
        for await (const page of usersTablePages(db, product, EXPORT_PAGE_ROWS)) {
          const rows = filterAudience(page, filters, { product, billingDetails, timeZone });
          yield search ? searchRecipients(rows, search) : rows;
        }
      }
      return sendExport(reply, format, timeZone, kept());
    },
  );

  api.get(
    '/api/admin/v1/invitations-export',
    {
      config: { auth: 'admin', audit: 'export.invitations' },
      schema: { querystring: invitationsExportQuerySchema },
    },
    async (request, reply) => {
      noteAudit(request, { detail: { query: request.query } });
      const { format, search, timeZone: zone, ...filters } = request.query;
      const timeZone = zone ?? localTimeZone();
      // Invitations are one per friend a driver invited: few beside the users table, so they are
      // merged whole, with only the users they name read.
      const invitations = await listInvitations(db);
      const phones = new Set<string>();
      for (const invitation of invitations) {
        phones.add(invitation.phoneNumber);
        const normal = normalizePhone(invitation.phoneNumber);
        if (normal) phones.add(normal);
      }
      const users = await flexUsersByPhone(db, [...phones]);
      const invitees = filterInvitees(mergeInvitees(invitations, users), filters, { timeZone });
      const rows = search ? searchRecipients(invitees, search) : invitees;
      async function* pages() {
        for (let start = 0; start < rows.length; start += EXPORT_PAGE_ROWS) {
          yield rows.slice(start, start + EXPORT_PAGE_ROWS);
        }
      }
      return sendExport(reply, format, timeZone, pages());
    },
  );
}

function sendExport(
  reply: FastifyReply,
  format: ExportFormat,
  timeZone: string,
  pages: AsyncIterable<readonly ExportedRow[]>,
) {
  return reply
    .header('content-type', CONTENT_TYPES[format])
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks(pages, format, timeZone)));
}

/** One string per page: the header first for CSV, then every kept row of each page. */
async function* chunks(
  pages: AsyncIterable<readonly ExportedRow[]>,
  format: ExportFormat,
  timeZone: string,
): AsyncGenerator<string> {
  if (format === 'csv') yield EXPORT_CSV_HEADER;
  for await (const rows of pages) {
    if (rows.length === 0) continue;
    let text = '';
    if (format === 'csv') for (const row of rows) text += exportCsvLine(row, timeZone);
    else for (const row of rows) text += `${JSON.stringify(row)}\n`;
    yield text;
  }
}
