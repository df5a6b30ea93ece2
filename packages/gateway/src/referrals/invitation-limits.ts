// Who may text strangers through invitations, and how many texts go out: the one way left for a
// stranger to make the service text any number, so it is closed to new and unpaid accounts and
// counted per driver (refused past a limit) and for the whole service (kept for a later hour past
// it, never dropped). Settings: `invitationLimits` (docs/operations.md, "Security limits").
import type { FastifyReply } from 'fastify';
import type { GatewayConfig } from '../config.js';
import { ApiError, forbidden } from '../http/errors.js';
import { findAccountById } from '../storage/accounts.js';
import type { Queryable } from '../storage/db.js';
import { invitationSlotCounts, invitationSlotKey } from '../storage/invitation-texts.js';
import { hasSucceededPayment } from '../storage/payments.js';
import { hitCounter } from '../storage/security-counters.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How far ahead the service total keeps invitations: a week of hours. */
const MAX_SLOTS_AHEAD = 7 * 24;

export type InvitationLimits = GatewayConfig['invitationLimits'];

/** Invitations need a verified phone and at least one payment: 403 `forbidden` otherwise. */
export async function requireInviter(
  db: Queryable,
  principal: { claims: { sub: string }; user: { id: string } },
): Promise<void> {
  const account = await findAccountById(db, principal.claims.sub);
  if (account?.attributes.phone_number_verified !== 'true') {
    throw forbidden('Invitations open once your phone number is verified; confirm it first.');
  }
  if (!(await hasSucceededPayment(db, principal.user.id))) {
    throw forbidden('Invitations open after your first payment; pay for a week of service first.');
  }
}

/**
 * Counts one invitation text against the driver's hourly and daily limits; past either, gives the
 * count back and answers 429 `rate_limited` with Retry-After (when the window that is full ends).
 */
export async function spendDriverInvitation(
  db: Queryable,
  reply: FastifyReply,
  userId: string,
  limits: InvitationLimits,
  now: number,
): Promise<void> {
  const windows = [
    { key: `invite-text:driver:${userId}:hour`, limit: limits.perDriverPerHour, ms: HOUR },
    { key: `invite-text:driver:${userId}:day`, limit: limits.perDriverPerDay, ms: DAY },
  ];
  const spent: typeof windows = [];
  for (const window of windows) {
    const { count, windowEnd } = await hitCounter(db, window.key, window.ms, now);
    spent.push(window);
    if (count > window.limit) {
      for (const s of spent) await hitCounter(db, s.key, s.ms, now, -1);
      const seconds = Math.max(1, Math.ceil((windowEnd - now) / 1000));
      const per = window.ms === HOUR ? 'hour' : 'day';
      reply.header('retry-after', String(seconds));
      throw new ApiError(
        429,
        'rate_limited',
        `You can send ${window.limit} invitations per ${per}; you can invite again in ${Math.ceil(seconds / 60)} min.`,
      );
    }
  }
}

/**
 * The time the text may go: null for now, or the start of the first later clock hour the service's
 * total still has room in. The count of that hour is taken atomically; an hour filled meanwhile by
 * another process is given back and the next one tried.
 */
export async function reserveInvitationSlot(
  db: Queryable,
  reply: FastifyReply,
  limits: InvitationLimits,
  now: number,
): Promise<number | null> {
  const current = Math.floor(now / HOUR) * HOUR;
  const counts = await invitationSlotCounts(db, now);
  for (let i = 0; i < MAX_SLOTS_AHEAD; i++) {
    const slot = current + i * HOUR;
    if ((counts.get(slot) ?? 0) >= limits.perHour) continue;
    const key = invitationSlotKey(slot);
    // The window is the hour itself, so the count is kept until the hour is over.
    const { count } = await hitCounter(db, key, HOUR, slot);
    if (count <= limits.perHour) return i === 0 ? null : slot;
    await hitCounter(db, key, HOUR, slot, -1);
    counts.set(slot, count - 1);
  }
  reply.header('retry-after', String(DAY / 1000));
  throw new ApiError(
    429,
    'rate_limited',
    'Invitations are full for the coming week; try again tomorrow.',
  );
}
