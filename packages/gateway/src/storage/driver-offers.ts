// What the catcher did with every offer a driver saw: won, disliked (with the matcher's reason) or
// gone (taken before us), with its timeline (docs/architecture.md, "An offer's timeline"). The
// dashboard, offers list, calendar and latency figures read it.
import { type Block, WON_BLOCKS_KEPT_MS } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

export type OfferKind = 'won' | 'disliked' | 'gone';

export interface OfferRecord {
  userId: string;
  offerId: string;
  kind: OfferKind;
  reason: string | null;
  serviceAreaId: string;
  startTime: number;
  endTime: number;
  pay: number;
  /** The poll answer that first showed the offer (epoch ms). */
  seenAt: number;
  /** When the platform published it, if it says. */
  publishedAt?: number | null;
  /** When the matcher decided. */
  decidedAt?: number | null;
  /** When the accept request left (accepted offers only). */
  acceptSentAt?: number | null;
  /** When the platform answered the accept (won or gone). */
  answeredAt?: number | null;
}

interface OfferRow {
  user_id: string;
  offer_id: string;
  kind: OfferKind;
  reason: string | null;
  service_area_id: string;
  start_ts: number;
  end_ts: number;
  pay: number;
  seen_ts: number;
  published_ts: number | null;
  decided_ts: number | null;
  accept_sent_ts: number | null;
  answer_ts: number | null;
}

const whole = (ts: number | null | undefined) => (ts == null ? null : Math.round(ts));

/** Writes many records in one statement; an offer already recorded for a driver keeps its first record. */
export async function recordOffers(db: Queryable, records: readonly OfferRecord[]): Promise<void> {
  if (records.length === 0) return;
  await db.query(
    `INSERT INTO driver_offers
       (user_id, offer_id, kind, reason, service_area_id, start_ts, end_ts, pay, seen_ts,
        published_ts, decided_ts, accept_sent_ts, answer_ts)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
       $6::bigint[], $7::bigint[], $8::float8[], $9::bigint[], $10::bigint[], $11::bigint[],
       $12::bigint[], $13::bigint[])
     ON CONFLICT (user_id, offer_id) DO NOTHING`,
    [
      records.map((r) => r.userId),
      records.map((r) => r.offerId),
      records.map((r) => r.kind),
      records.map((r) => r.reason),
      records.map((r) => r.serviceAreaId),
      records.map((r) => r.startTime),
      records.map((r) => r.endTime),
      records.map((r) => r.pay),
      records.map((r) => r.seenAt),
      records.map((r) => whole(r.publishedAt)),
      records.map((r) => whole(r.decidedAt)),
      records.map((r) => whole(r.acceptSentAt)),
      records.map((r) => whole(r.answeredAt)),
    ],
  );
}

/** Newest first; `before` (a seenAt) pages back. */
export async function listOfferRecords(
  db: Queryable,
  userId: string,
  options: { kind: OfferKind; limit: number; before?: number | undefined },
): Promise<OfferRecord[]> {
  const rows = await db.query<OfferRow>(
    `SELECT * FROM driver_offers WHERE user_id = $1 AND kind = $2 AND seen_ts < $3
     ORDER BY seen_ts DESC, offer_id LIMIT $4`,
    [userId, options.kind, options.before ?? Number.MAX_SAFE_INTEGER, options.limit],
  );
  return rows.map(toRecord);
}

/**
 * The offers a driver was shown in [from, to), in the order seen, at most `limit` (the newest
 * when there are more): what a filter preview replays.
 */
export async function listOffersSeenBetween(
  db: Queryable,
  userId: string,
  from: number,
  to: number,
  limit: number,
): Promise<OfferRecord[]> {
  const rows = await db.query<OfferRow>(
    `SELECT * FROM (
       SELECT * FROM driver_offers WHERE user_id = $1 AND seen_ts >= $2 AND seen_ts < $3
       ORDER BY seen_ts DESC LIMIT $4
     ) newest ORDER BY seen_ts, offer_id`,
    [userId, from, to, limit],
  );
  return rows.map(toRecord);
}

/** Won blocks starting in [from, to), in start order. */
export async function listWonBetween(
  db: Queryable,
  userId: string,
  from: number,
  to: number,
): Promise<OfferRecord[]> {
  const rows = await db.query<OfferRow>(
    `SELECT * FROM driver_offers WHERE user_id = $1 AND kind = 'won'
       AND start_ts >= $2 AND start_ts < $3 ORDER BY start_ts`,
    [userId, from, to],
  );
  return rows.map(toRecord);
}

/** Won blocks not over or over for less than the hours caps look back (overlap and caps), per driver. */
export async function listRecentWonBlocks(
  db: Queryable,
  userIds: readonly string[],
  now: number,
): Promise<Map<string, Block[]>> {
  const blocks = new Map<string, Block[]>();
  if (userIds.length === 0) return blocks;
  const rows = await db.query<OfferRow>(
    `SELECT * FROM driver_offers WHERE user_id = ANY($1::text[]) AND kind = 'won' AND end_ts > $2`,
    [userIds, now - WON_BLOCKS_KEPT_MS],
  );
  for (const row of rows) {
    const list = blocks.get(row.user_id) ?? [];
    list.push({
      startTime: Number(row.start_ts),
      endTime: Number(row.end_ts),
      offerId: row.offer_id,
    });
    blocks.set(row.user_id, list);
  }
  return blocks;
}

function toRecord(row: OfferRow): OfferRecord {
  return {
    userId: row.user_id,
    offerId: row.offer_id,
    kind: row.kind,
    reason: row.reason,
    serviceAreaId: row.service_area_id,
    startTime: Number(row.start_ts),
    endTime: Number(row.end_ts),
    pay: Number(row.pay),
    seenAt: Number(row.seen_ts),
    publishedAt: orNull(row.published_ts),
    decidedAt: orNull(row.decided_ts),
    acceptSentAt: orNull(row.accept_sent_ts),
    answeredAt: orNull(row.answer_ts),
  };
}

const orNull = (value: number | null) => (value === null ? null : Number(value));

/** The timelines of the offers a driver accepted since `since`, newest first. */
export async function listAcceptTimelines(
  db: Queryable,
  userId: string,
  since: number,
  limit: number,
): Promise<OfferRecord[]> {
  const rows = await db.query<OfferRow>(
    `SELECT * FROM driver_offers WHERE user_id = $1 AND accept_sent_ts IS NOT NULL
       AND seen_ts >= $2 ORDER BY seen_ts DESC LIMIT $3`,
    [userId, since, limit],
  );
  return rows.map(toRecord);
}
