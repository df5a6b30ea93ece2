// GET /api/admin/v1/users-export: the admin table's rows with the same filters and search the
// table and the CLI apply, answered as CSV (text/csv) or NDJSON in chunks, so neither side ever
// holds the whole answer as one string. The row format is the SDK's exportRow, the CLI's own.
import { Readable } from 'node:stream';
import {
  EXPORT_COLUMNS,
  type ExportFormat,
  exportRow,
  type FlexUser,
  filterAudience,
  localTimeZone,
  type SparkUser,
  searchRecipients,
  usersExportQuerySchema,
} from '@blockcatch/sdk';
import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden } from '../http/errors.js';
import type { Db } from '../storage/db.js';
import { listUsers, toFlexUser, toSparkUser } from '../storage/users.js';

/** Rows per chunk: big enough that the per-chunk cost vanishes, small enough to start at once. */
const CHUNK_ROWS = 5000;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

export function registerUsersExport(app: FastifyInstance, db: Db): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/admin/v1/users-export',
      { config: { auth: 'admin' }, schema: { querystring: usersExportQuerySchema } },
      async (request, reply) => {
        const { product, format, search, timeZone: zone, ...filters } = request.query;
        const billingDetails = request.principal.user.can_see_billing;
        if (filters.selectedReferral && !billingDetails) {
          throw forbidden('The referral filter needs the billing-details permission.');
        }
        const timeZone = zone ?? localTimeZone();
        const records = await listUsers(db, product);
        const toRow = product === 'flex' ? toFlexUser : toSparkUser;
        const users = records.map((record): FlexUser | SparkUser => toRow(record));
        const kept = filterAudience(users, filters, { product, billingDetails, timeZone });
        const rows = search ? searchRecipients(kept, search) : kept;
        return reply
          .header('content-type', CONTENT_TYPES[format])
          .header('cache-control', 'no-store')
          .header('x-total-count', String(rows.length))
          .header('access-control-expose-headers', 'x-total-count')
          .send(Readable.from(chunks(rows, format, timeZone)));
      },
    );
}

function* chunks(
  rows: ReadonlyArray<FlexUser | SparkUser>,
  format: ExportFormat,
  timeZone: string,
): Generator<string> {
  if (format === 'csv') yield stringify([], { header: true, columns: [...EXPORT_COLUMNS] });
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const part = rows.slice(start, start + CHUNK_ROWS);
    yield format === 'csv'
      ? stringify(
          part.map((row) => exportRow(row, timeZone)),
          { columns: [...EXPORT_COLUMNS] },
        )
      : `${part.map((row) => JSON.stringify(row)).join('\n')}\n`;
  }
}
