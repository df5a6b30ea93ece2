// The audit trail's table: appending a staff action and reading them back, newest first, filtered.
// Nothing here updates or deletes: the table's triggers refuse both (migration 040).
import type { AuditAction, AuditEvent } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

export interface NewAuditEvent {
  ts: number;
  actorId: string;
  actorName: string;
  actorPhone: string;
  action: AuditAction;
  target: string | null;
  detail: Record<string, unknown>;
  ip: string | null;
  tokenId: string | null;
}

export async function appendAuditEvent(db: Queryable, event: NewAuditEvent): Promise<void> {
  await db.query(
    `INSERT INTO audit_events (ts, actor_id, actor_name, actor_phone, action, target, detail, ip,
       token_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)`,
    [
      event.ts,
      event.actorId,
      event.actorName,
      event.actorPhone,
      event.action,
      event.target,
      JSON.stringify(event.detail),
      event.ip,
      event.tokenId,
    ],
  );
}

export interface AuditFilter {
  action?: AuditAction | undefined;
  /** Part of the actor's name or phone number, case ignored. */
  actor?: string | undefined;
  /** Epoch ms, inclusive start and exclusive end. */
  fromTs?: number | undefined;
  toTs?: number | undefined;
  /** Events older than this id (the last one of the previous page). */
  beforeId?: number | undefined;
}

interface AuditRow {
  id: number;
  ts: number;
  actor_id: string;
  actor_name: string;
  actor_phone: string;
  action: AuditAction;
  target: string | null;
  detail: Record<string, unknown>;
  ip: string | null;
  token_id: string | null;
}

/** Up to `limit` events matching `filter`, newest first. */
export async function listAuditEvents(
  db: Queryable,
  filter: AuditFilter,
  limit: number,
): Promise<AuditEvent[]> {
  // The actor is matched as a plain substring: strpos, not LIKE, so `%` and `_` in it mean themselves.
  const rows = await db.query<AuditRow>(
    `SELECT id, ts, actor_id, actor_name, actor_phone, action, target, detail, ip, token_id
     FROM audit_events
     WHERE ($1::text IS NULL OR action = $1)
       AND ($2::text IS NULL OR strpos(lower(actor_name), lower($2)) > 0
            OR strpos(actor_phone, $2) > 0)
       AND ($3::int8 IS NULL OR ts >= $3)
       AND ($4::int8 IS NULL OR ts < $4)
       AND ($5::int8 IS NULL OR id < $5)
     ORDER BY id DESC
     LIMIT $6`,
    [
      filter.action ?? null,
      filter.actor ?? null,
      filter.fromTs ?? null,
      filter.toTs ?? null,
      filter.beforeId ?? null,
      limit,
    ],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    at: Number(r.ts),
    actorId: r.actor_id,
    actorName: r.actor_name,
    actorPhone: r.actor_phone,
    action: r.action,
    target: r.target,
    detail: r.detail ?? {},
    ip: r.ip,
    tokenId: r.token_id,
  }));
}
