// Support requests: a driver's new one (refused past the open limit in the same statement), their
// own list, the staff inbox and an answer.
import { randomUUID } from 'node:crypto';
import type {
  NewSupportRequest,
  SupportReply,
  SupportRequest,
  SupportStatus,
} from '@blockcatch/sdk';
import type { Queryable } from './db.js';

interface Row {
  id: string;
  topic: SupportRequest['topic'];
  message: string;
  name: string;
  phone_number: string;
  status: SupportStatus;
  reply: string | null;
  reply_channel: SupportRequest['replyChannel'];
  created_ts: number | string;
  answered_ts: number | string | null;
}

const COLUMNS =
  'id, topic, message, name, phone_number, status, reply, reply_channel, created_ts, answered_ts';

const toRequest = (row: Row): SupportRequest => ({
  id: row.id,
  topic: row.topic,
  message: row.message,
  name: row.name,
  phoneNumber: row.phone_number,
  status: row.status,
  reply: row.reply,
  replyChannel: row.reply_channel,
  createdAt: Number(row.created_ts),
  answeredAt: row.answered_ts === null ? null : Number(row.answered_ts),
});

/** The new request, or null when the driver already has `maxOpen` waiting. */
export async function insertSupportRequest(
  db: Queryable,
  user: { id: string; name: string; phoneNumber: string },
  request: NewSupportRequest,
  options: { maxOpen: number; now: number },
): Promise<SupportRequest | null> {
  const rows = await db.query<Row>(
    `INSERT INTO support_requests (id, user_id, topic, message, name, phone_number, created_ts)
     SELECT $1, $2, $3, $4, $5, $6, $7
     WHERE (SELECT count(*) FROM support_requests WHERE user_id = $2 AND status = 'open') < $8
     RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      user.id,
      request.topic,
      request.message,
      user.name,
      user.phoneNumber,
      options.now,
      options.maxOpen,
    ],
  );
  return rows[0] ? toRequest(rows[0]) : null;
}

/** A driver's own requests, newest first. */
export async function listOwnSupportRequests(
  db: Queryable,
  userId: string,
  limit: number,
): Promise<SupportRequest[]> {
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM support_requests WHERE user_id = $1
     ORDER BY created_ts DESC, id LIMIT $2`,
    [userId, limit],
  );
  return rows.map(toRequest);
}

/** The inbox: open requests oldest first (who waited longest), answered ones newest first. */
export async function listSupportInbox(
  db: Queryable,
  status: SupportStatus,
  limit: number,
): Promise<SupportRequest[]> {
  const order = status === 'open' ? 'created_ts ASC' : 'answered_ts DESC';
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM support_requests WHERE status = $1 ORDER BY ${order}, id LIMIT $2`,
    [status, limit],
  );
  return rows.map(toRequest);
}

/** Answers a request (again, if staff correct an answer); null when there is no such request. */
export async function answerSupportRequest(
  db: Queryable,
  id: string,
  answer: SupportReply & { by: string; now: number },
): Promise<(SupportRequest & { userId: string }) | null> {
  const rows = await db.query<Row & { user_id: string }>(
    `UPDATE support_requests
     SET status = 'answered', reply = $2, reply_channel = $3, answered_by = $4, answered_ts = $5
     WHERE id = $1 RETURNING ${COLUMNS}, user_id`,
    [id, answer.reply, answer.channel, answer.by, answer.now],
  );
  const row = rows[0];
  return row ? { ...toRequest(row), userId: row.user_id } : null;
}
