// The Idempotency-Key header that makes a POST safe to retry (sends, payments): its schema, for
// route declarations, and the header that marks an answer as a replay of the first result.
import { z } from 'zod';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

export const idempotencyKeySchema = z
  .string({
    message:
      'the Idempotency-Key header is required: send a unique key (1 to 200 characters) with each send, and the same key when retrying it, so it never happens twice',
  })
  .trim()
  .min(1, { message: 'the Idempotency-Key header is empty; use 1 to 200 characters' })
  .max(200, { message: 'the Idempotency-Key header is too long; use 1 to 200 characters' });

/** The headers schema of a route that takes an Idempotency-Key; other headers pass untouched. */
export const idempotentHeadersSchema = z.looseObject({
  [IDEMPOTENCY_HEADER]: idempotencyKeySchema,
});
