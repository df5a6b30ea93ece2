// Replies to our senders (the inbound webhook): opt-out, opt-in and HELP keywords in English and
// Spanish (the SDK's parseKeyword), each answered in the keyword's language, once per inbound
// message (logged), HELP at most once per number per day. Opt-outs follow the sender replied to:
// with a marketing sender of its own, STOP to it stops marketing only and the answer says how to
// stop the account alerts too; with one sender, STOP stops everything. A START to marketing's
// sender records consent to marketing.
import { type KeywordIntent, type KeywordLanguage, parseKeyword } from '@blockcatch/sdk';
import type { Queryable } from '../storage/db.js';
import { recordConsent } from '../storage/marketing-consent.js';
import {
  firstHelpToday,
  optIn,
  optInToSender,
  optOut,
  optOutOfSender,
} from '../storage/opt-outs.js';

/** What each keyword is answered with, by language; `{account}` is the account sender. */
export const KEYWORD_ANSWERS: Readonly<
  Record<KeywordLanguage, Record<KeywordIntent | 'opt-out-marketing', string>>
> = {
  en: {
    'opt-out': 'BlockCatch: you will get no more messages from us. Reply START to subscribe again.',
    'opt-out-marketing':
      'BlockCatch: you will get no more marketing texts from this number. Alerts about your account and blocks continue from {account}: reply STOP to that number to stop them too. Reply START to subscribe again.',
    'opt-in':
      'BlockCatch: you will get our messages again. Reply STOP to unsubscribe, HELP for help.',
    help: 'BlockCatch support: 7 am to 10 pm EST, or write to us from the Contact page. Reply STOP to unsubscribe.',
  },
  es: {
    'opt-out':
      'BlockCatch: ya no recibirás mensajes nuestros. Responde COMENZAR para volver a suscribirte.',
    'opt-out-marketing':
      'BlockCatch: ya no recibirás promociones de este número. Los avisos de tu cuenta y tus bloques siguen llegando desde {account}: responde PARAR a ese número para detenerlos también. Responde COMENZAR para volver a suscribirte.',
    'opt-in':
      'BlockCatch: volverás a recibir nuestros mensajes. Responde PARAR para darte de baja, AYUDA para pedir ayuda.',
    help: 'Soporte de BlockCatch: de 7 am a 10 pm EST, o escríbenos desde la página de Contacto. Responde PARAR para darte de baja.',
  },
};

/** Our senders: the account one, and marketing's when it has its own (else the same). */
export interface Senders {
  account: string;
  marketing: string;
}

/**
 * Acts on a keyword reply and says what to answer: null when it is no keyword, when this inbound
 * message (by its provider id) was already handled, or for a second HELP the same day. `to` is the
 * sender it was sent to (a number, or the messaging service it belongs to). Every keyword reply is
 * logged in inbound_replies.
 */
export async function answerKeyword(
  db: Queryable,
  inbound: {
    from: string;
    to: string | null;
    body: string;
    messageSid: string | null;
    now: number;
    /** The day the HELP limit counts in (YYYY-MM-DD in the product's zone). */
    day: string;
  },
  senders: Senders,
): Promise<string | null> {
  const keyword = parseKeyword(inbound.body);
  if (!keyword) return null;
  const separate = senders.marketing !== senders.account;
  const toMarketing = separate && inbound.to === senders.marketing;
  const texts = KEYWORD_ANSWERS[keyword.language];
  const answer =
    keyword.intent === 'opt-out' && toMarketing
      ? texts['opt-out-marketing'].replace('{account}', senders.account)
      : texts[keyword.intent];
  const logged = await db.query<{ message_sid: string }>(
    `INSERT INTO inbound_replies (message_sid, from_number, keyword, reply, received_ts)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (message_sid) DO NOTHING RETURNING message_sid`,
    [
      inbound.messageSid ?? `${inbound.from}:${inbound.now}`,
      inbound.from,
      keyword.word,
      answer,
      inbound.now,
    ],
  );
  if (logged.length === 0) return null;
  // Which sender the reply concerns: with one sender, all of them.
  const sender = !separate ? null : toMarketing ? senders.marketing : senders.account;
  switch (keyword.intent) {
    case 'opt-out':
      if (sender === null) await optOut(db, inbound.from, inbound.now);
      else await optOutOfSender(db, inbound.from, sender, inbound.now);
      return answer;
    case 'opt-in':
      if (sender === null) await optIn(db, inbound.from);
      else await optInToSender(db, inbound.from, sender);
      // A START to the number marketing comes from asks for marketing too: recorded as consent,
      // with the reply as its words. One to a separate account number asks for alerts only.
      if (sender === null || sender === senders.marketing) {
        await recordConsent(db, {
          phoneNumber: inbound.from,
          consented: true,
          method: 'start-reply',
          textVersion: null,
          words: inbound.body.trim(),
          now: inbound.now,
        });
      }
      return answer;
    case 'help':
      return (await firstHelpToday(db, inbound.from, inbound.day)) ? answer : null;
  }
}
