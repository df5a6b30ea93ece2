// The outbox: where the sandbox's message provider delivers, and where people read what was sent.
import type { Queryable } from './db.js';

export interface OutboxMessage {
  id: number;
  channel: 'sms' | 'whatsapp';
  to: string;
  body: string;
  template: unknown;
  jobId: string | null;
  createdAt: number;
}

interface OutboxRow {
  id: number;
  channel: 'sms' | 'whatsapp';
  to_number: string;
  body: string;
  template: unknown;
  job_id: string | null;
  created_ts: number;
}

/**
 * Appends many messages in one statement (the send worker delivers a whole batch at once); each is
 * stamped with its own `at` (its pace slot), else `now`.
 */
export async function appendOutboxMany(
  db: Queryable,
  messages: readonly {
    channel: 'sms' | 'whatsapp';
    to: string;
    body: string;
    template?: unknown;
    jobId?: string;
    at?: number;
  }[],
  now = Date.now(),
): Promise<void> {
  if (messages.length === 0) return;
  await db.query(
    `INSERT INTO outbox_messages (channel, to_number, body, template, job_id, created_ts)
     SELECT channel, to_number, body, template::jsonb, job_id, created_ts
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int8[])
       AS t(channel, to_number, body, template, job_id, created_ts)`,
    [
      messages.map((m) => m.channel),
      messages.map((m) => m.to),
      messages.map((m) => m.body),
      messages.map((m) => (m.template === undefined ? null : JSON.stringify(m.template))),
      messages.map((m) => m.jobId ?? null),
      messages.map((m) => m.at ?? now),
    ],
  );
}

/** Newest first; `to` narrows to one phone number, `afterId` pages forward for pollers. */
export async function readOutbox(
  db: Queryable,
  options: { to?: string; afterId?: number; limit?: number } = {},
): Promise<OutboxMessage[]> {
  const rows = await db.query<OutboxRow>(
    `SELECT * FROM outbox_messages
     WHERE ($1::text IS NULL OR to_number = $1) AND id > $2
     ORDER BY id DESC LIMIT $3`,
    [options.to ?? null, options.afterId ?? 0, options.limit ?? 100],
  );
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    to: r.to_number,
    body: r.body,
    template: r.template,
    jobId: r.job_id,
    createdAt: r.created_ts,
  }));
}
