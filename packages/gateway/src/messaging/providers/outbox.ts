// The sandbox's default provider: messages land in the outbox table, read at GET /api/sandbox/outbox,
// and their delivery is simulated as a provider's status callbacks would report it: delivered,
// except for the test numbers below, which fail with the error code they are named after.
import { appendOutboxMany } from '../../storage/outbox.js';
import type { DatabaseProvider } from './types.js';

/**
 * `+155500` followed by a five-digit provider error code: a message to it is reported with that
 * code (undelivered, or failed for 63016), e.g. +15550030006 comes back as a landline.
 */
const OUTBOX_FAILURE_NUMBERS: Readonly<Record<string, number>> = {
  '+15550030003': 30003,
  '+15550030005': 30005,
  '+15550030006': 30006,
  '+15550030007': 30007,
  '+15550021610': 21610,
  '+15550063016': 63016,
};

/** What the outbox reports for a message to `to`: the callback a real provider would send. */
export function simulatedDelivery(to: string): {
  status: 'delivered' | 'undelivered' | 'failed';
  errorCode: number | null;
} {
  const code = OUTBOX_FAILURE_NUMBERS[to];
  if (code === undefined) return { status: 'delivered', errorCode: null };
  return { status: code === 63016 ? 'failed' : 'undelivered', errorCode: code };
}

export function createOutboxProvider(): DatabaseProvider {
  return {
    kind: 'database',
    name: 'outbox',
    deliverBatch: (tx, messages) =>
      appendOutboxMany(
        tx,
        messages.map(({ contentSid, variables, ...message }) => ({
          ...message,
          ...(variables ? { template: { ...(message.template as object), variables } } : {}),
        })),
      ),
  };
}
