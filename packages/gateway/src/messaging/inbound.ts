// Replies to the sender number (the inbound webhook): opt-out, opt-in and HELP keywords, and the
// answer each gets (once per inbound message, logged).
import type { Queryable } from '../storage/db.js';
import { optIn, optOut } from '../storage/opt-outs.js';

/** The carriers' opt-out, opt-in and help keywords; the whole reply must be the keyword. */
const OPT_OUT = new Set([
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
]);
const OPT_IN = new Set(['START', 'UNSTOP', 'YES']);
const HELP = new Set(['HELP', 'INFO']);

export type ReplyIntent = 'opt-out' | 'opt-in' | 'help';

export function replyIntent(body: string): ReplyIntent | null {
  const word = body.trim().toUpperCase();
  if (OPT_OUT.has(word)) return 'opt-out';
  if (OPT_IN.has(word)) return 'opt-in';
  if (HELP.has(word)) return 'help';
  return null;
}

/** What each keyword is answered with. */
export const KEYWORD_ANSWERS: Readonly<Record<ReplyIntent, string>> = {
  'opt-out': 'BlockCatch: you will get no more messages from us. Reply START to subscribe again.',
  'opt-in':
    'BlockCatch: you will get our messages again. Reply STOP to unsubscribe, HELP for help.',
  help: 'BlockCatch support: 7 am to 10 pm EST, or write to us from the Contact page. Reply STOP to unsubscribe.',
};

/**
 * Acts on a keyword reply and says what to answer: null when it is no keyword, or when this
 * inbound message (by its provider id) was already handled, so a webhook retried by the provider
 * is answered once. Every keyword reply is logged in inbound_replies.
 */
export async function answerKeyword(
  db: Queryable,
  inbound: { from: string; body: string; messageSid: string | null; now: number },
): Promise<string | null> {
  const intent = replyIntent(inbound.body);
  if (!intent) return null;
  const answer = KEYWORD_ANSWERS[intent];
  const logged = await db.query<{ message_sid: string }>(
    `INSERT INTO inbound_replies (message_sid, from_number, keyword, reply, received_ts)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (message_sid) DO NOTHING RETURNING message_sid`,
    [
      inbound.messageSid ?? `${inbound.from}:${inbound.now}`,
      inbound.from,
      inbound.body.trim().toUpperCase().slice(0, 20),
      answer,
      inbound.now,
    ],
  );
  if (logged.length === 0) return null;
  if (intent === 'opt-out') await optOut(db, inbound.from, inbound.now);
  if (intent === 'opt-in') await optIn(db, inbound.from);
  return answer;
}
