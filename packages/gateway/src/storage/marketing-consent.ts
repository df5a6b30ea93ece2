// Consent to marketing texts (see migrations/022): the current answer per number and the history
// of every answer, written together.
import type { ConsentMethod, MarketingConsent } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

export interface ConsentAnswer {
  phoneNumber: string;
  consented: boolean;
  method: ConsentMethod;
  /** The version of the text shown; null for a START reply. */
  textVersion: string | null;
  /** The words agreed to (or the reply sent). */
  words: string;
  now: number;
}

export async function recordConsent(db: Queryable, answer: ConsentAnswer): Promise<void> {
  const values = [
    answer.phoneNumber,
    answer.consented,
    answer.method,
    answer.textVersion,
    answer.words.slice(0, 2000),
    answer.now,
  ];
  await db.query(
    `INSERT INTO marketing_consents (phone_number, consented, method, text_version, words,
       recorded_ts)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (phone_number) DO UPDATE SET consented = $2, method = $3, text_version = $4,
       words = $5, recorded_ts = $6`,
    values,
  );
  await db.query(
    `INSERT INTO marketing_consent_history (phone_number, consented, method, text_version, words,
       recorded_ts)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    values,
  );
}

/** The number's current answer; a number never asked has consented to nothing. */
export async function findConsent(db: Queryable, phoneNumber: string): Promise<MarketingConsent> {
  const [row] = await db.query<{
    consented: boolean;
    method: ConsentMethod;
    text_version: string | null;
    words: string;
    recorded_ts: number;
  }>(
    `SELECT consented, method, text_version, words, recorded_ts FROM marketing_consents
     WHERE phone_number = $1`,
    [phoneNumber],
  );
  if (!row) {
    return { consented: false, recordedAt: null, method: null, textVersion: null, words: null };
  }
  return {
    consented: row.consented,
    recordedAt: Number(row.recorded_ts),
    method: row.method,
    textVersion: row.text_version,
    words: row.words,
  };
}

/**
 * The sandbox's sample drivers in good standing ticked the sign-up box when their account was
 * created (with `words`, English); the others, and invitees who never signed up, did not.
 */
export async function recordSampleConsents(
  db: Queryable,
  textVersion: string,
  words: string,
): Promise<void> {
  const sample = `SELECT DISTINCT ON (phone_number) phone_number, true, 'sign-up', $1::text,
                         $2::text, create_date_ts
                  FROM users WHERE good_standing ORDER BY phone_number, create_date_ts`;
  const columns = 'phone_number, consented, method, text_version, words, recorded_ts';
  await db.query(`INSERT INTO marketing_consents (${columns}) ${sample} ON CONFLICT DO NOTHING`, [
    textVersion,
    words,
  ]);
  await db.query(`INSERT INTO marketing_consent_history (${columns}) ${sample}`, [
    textVersion,
    words,
  ]);
}
