// The owners' alert when a sender is paused (the provider refused our credentials) and when it
// resumes: a text to every owner in their language, queued as an alert (claimed before any
// marketing). It goes from the account sender; when that is the one paused it waits queued with
// the rest and goes first once the credentials work again. The log line stays for the operator.
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };
import type { Db } from '../storage/db.js';
import { findOwners } from '../storage/users.js';
import type { Enqueue } from './enqueue.js';

type Event = 'senderPaused' | 'senderResumed';

/** The owner's text for `event` in `language` (English unless Spanish). */
function ownerAlertText(event: Event, language: string, sender: string): string {
  const catalogue = language.startsWith('es') ? es : en;
  return catalogue.sms[event].replace('{{sender}}', sender);
}

/** Queues `event`'s text to every owner, once per owner for this event at `at`. */
export async function alertOwners(
  db: Db,
  enqueue: Enqueue,
  event: Event,
  sender: string,
  at: number,
): Promise<void> {
  for (const owner of await findOwners(db)) {
    await enqueue({
      createdBy: owner.id,
      key: `alert:${event}:${sender}:${at}`,
      to: owner.phoneNumber,
      body: ownerAlertText(event, owner.language, sender),
      quietHours: false,
    });
  }
}
