// The sandbox's default provider: messages land in the outbox table, read at GET /api/sandbox/outbox.
import { appendOutboxMany } from '../../storage/outbox.js';
import type { DatabaseProvider } from './types.js';

export function createOutboxProvider(): DatabaseProvider {
  return {
    kind: 'database',
    name: 'outbox',
    deliverBatch: (tx, messages) => appendOutboxMany(tx, messages),
  };
}
