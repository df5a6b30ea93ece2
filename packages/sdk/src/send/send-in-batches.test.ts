// Bulk sends: batching, idempotency keys per batch, progress, and resuming from the journal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MsgTemplate, Recipient, SendResult } from '../core/schemas/index.js';
import { ServerError } from '../errors.js';
import type { SendOptions } from '../gateway/resources/messages.js';
import { createMemoryJournal } from './journal.js';
import {
  type BatchProgress,
  type BatchSender,
  sendInBatches,
  splitIntoBatches,
} from './send-in-batches.js';

const numbers = (n: number) =>
  Array.from({ length: n }, (_, i) => `+1555${String(i).padStart(7, '0')}`);

/** Records every send; fails the sends whose batch key is listed in `failOn`. */
function recordingSender(failOn: Set<string> = new Set()) {
  const sent: Array<{
    key: string;
    numbers: Recipient[];
    message?: string;
    template?: MsgTemplate;
  }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const answer = async (
    payload: { numbers: Recipient[] },
    options: SendOptions | undefined,
    extra: { message?: string; template?: MsgTemplate },
  ): Promise<SendResult> => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Yield a turn of the event loop so that concurrent batches overlap here.
    await new Promise((next) => setImmediate(next));
    inFlight--;
    const key = options?.idempotencyKey ?? '';
    if (failOn.has(key)) throw new ServerError(503, { message: 'busy' });
    sent.push({ key, numbers: payload.numbers, ...extra });
    return { queued: payload.numbers.length, jobId: key };
  };
  const sender: BatchSender = {
    sendSms: (p, o) => answer(p, o, { message: p.message }),
    sendWhatsapp: (p, o) => answer(p, o, { template: p.msgTemplate }),
  };
  return { sender, sent, maxInFlight: () => maxInFlight };
}

describe('splitIntoBatches', () => {
  it('keeps every item once, in order, in batches of at most the size', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 50 }), (items, size) => {
        const batches = splitIntoBatches(items, size);
        expect(batches.flat()).toEqual(items);
        expect(batches.every((b) => b.length >= 1 && b.length <= size)).toBe(true);
        expect(batches.length).toBe(Math.ceil(items.length / size));
      }),
    );
  });
});

describe('sendInBatches', () => {
  it('sends 2500 recipients as 1000, 1000 and 500 with keys key:0, key:1, key:2', async () => {
    const { sender, sent } = recordingSender();
    const summary = await sendInBatches(sender, numbers(2500), 'hello', { key: 'promo' });
    expect(sent.map((s) => s.key).sort()).toEqual(['promo:0', 'promo:1', 'promo:2']);
    expect(sent.map((s) => s.numbers.length).sort()).toEqual([1000, 1000, 500]);
    expect(summary).toMatchObject({
      batchesTotal: 3,
      batchesSent: 3,
      batchesSkipped: 0,
      recipientsDone: 2500,
      queued: 2500,
      message: 'Message sent successfully to 2500 users.',
    });
  });

  it('never has more batches in flight than the concurrency', async () => {
    const { sender, maxInFlight } = recordingSender();
    await sendInBatches(sender, numbers(50), 'hi', { key: 'k', batchSize: 5, concurrency: 3 });
    expect(maxInFlight()).toBe(3);
  });

  it('reports progress after each batch, ending at the totals', async () => {
    const { sender } = recordingSender();
    const seen: BatchProgress[] = [];
    await sendInBatches(sender, numbers(25), 'hi', {
      key: 'k',
      batchSize: 10,
      concurrency: 1,
      onProgress: (p) => seen.push(p),
    });
    expect(seen).toEqual([
      { batchesDone: 0, batchesTotal: 3, recipientsDone: 0, recipientsTotal: 25 },
      { batchesDone: 1, batchesTotal: 3, recipientsDone: 10, recipientsTotal: 25 },
      { batchesDone: 2, batchesTotal: 3, recipientsDone: 20, recipientsTotal: 25 },
      { batchesDone: 3, batchesTotal: 3, recipientsDone: 25, recipientsTotal: 25 },
    ]);
  });

  it('resumes an interrupted send: only unacknowledged batches go out, each recipient once', async () => {
    const journal = createMemoryJournal();
    const all = numbers(100);
    const first = recordingSender(new Set(['k:3']));
    await expect(
      sendInBatches(first.sender, all, 'hi', { key: 'k', batchSize: 10, concurrency: 1, journal }),
    ).rejects.toBeInstanceOf(ServerError);
    expect(first.sent.map((s) => s.key)).toEqual(['k:0', 'k:1', 'k:2']);

    const second = recordingSender();
    const summary = await sendInBatches(second.sender, all, 'hi', {
      key: 'k',
      batchSize: 10,
      journal,
    });
    expect(summary.batchesSkipped).toBe(3);
    expect(summary.batchesSent).toBe(7);
    const everyone = [...first.sent, ...second.sent].flatMap((s) => s.numbers.map((n) => n.number));
    expect(everyone.sort()).toEqual([...all].sort());
  });

  it('finishes and journals the batches in flight when one fails, and starts no new ones', async () => {
    const journal = createMemoryJournal();
    const { sender, sent } = recordingSender(new Set(['k:0']));
    await expect(
      sendInBatches(sender, numbers(60), 'hi', {
        key: 'k',
        batchSize: 10,
        concurrency: 2,
        journal,
      }),
    ).rejects.toThrow();
    expect(sent.map((s) => s.key)).toEqual(['k:1']);
    expect([...(await journal.load('k'))]).toEqual([1]);
  });

  it('sends a template as WhatsApp', async () => {
    const { sender, sent } = recordingSender();
    const template = { name: 'promo', language: 'en', components: [] };
    await sendInBatches(sender, [{ number: '+15550000001' }], template, { key: 'w' });
    expect(sent[0]?.template).toEqual(template);
  });

  it('refuses a channel that contradicts the content, a bad batch size and an empty key', async () => {
    const { sender } = recordingSender();
    await expect(
      sendInBatches(sender, numbers(1), 'hi', { key: 'k', channel: 'whatsapp' }),
    ).rejects.toThrow(/channel 'whatsapp'/);
    await expect(
      sendInBatches(sender, numbers(1), 'hi', { key: 'k', batchSize: 0 }),
    ).rejects.toThrow(/batchSize/);
    await expect(sendInBatches(sender, numbers(1), 'hi', { key: '' })).rejects.toThrow(/key/);
  });
});
