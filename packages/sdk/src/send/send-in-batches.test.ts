// Sends as one job: every part under the job's key, progress by recipient, and against a gateway
// that keeps each number once per job, re-runs with any batch size or a grown audience reach
// everyone exactly once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MsgTemplate, Recipient } from '../core/schemas/index.js';
import { ServerError } from '../errors.js';
import type { SendOptions } from '../gateway/resources/messages.js';
import {
  type BatchProgress,
  type BatchResult,
  type BatchSender,
  sendInBatches,
  splitIntoBatches,
} from './send-in-batches.js';

const numbers = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `+1555${String(from + i).padStart(7, '0')}`);

/**
 * A gateway that keeps each number once per key, as the real one does. `failAt` fails the request
 * with that index (counted over the sender's life) after the gateway took it: the answer is lost.
 */
function jobGateway(failAt = -1) {
  const jobs = new Map<string, Set<string>>();
  const texted: string[] = [];
  const requests: { key: string; numbers: Recipient[]; template?: MsgTemplate }[] = [];
  const answer = async (
    payload: { numbers: Recipient[] },
    options: SendOptions | undefined,
    template?: MsgTemplate,
  ): Promise<BatchResult> => {
    const key = options?.idempotencyKey ?? '';
    const index = requests.length;
    requests.push({ key, numbers: payload.numbers, ...(template ? { template } : {}) });
    const job = jobs.get(key) ?? new Set<string>();
    jobs.set(key, job);
    let added = 0;
    for (const { number } of payload.numbers) {
      if (job.has(number)) continue;
      job.add(number);
      texted.push(number);
      added++;
    }
    if (index === failAt) throw new ServerError(503, { message: 'busy' });
    return {
      jobId: `job-${key}`,
      queued: added,
      added,
      earlier: payload.numbers.length - added,
      skipped: [],
      estimatedCost: added * 0.0083,
      replayed: added === 0,
    };
  };
  const sender: BatchSender = {
    sendSms: (p, o) => answer(p, o),
    sendWhatsapp: (p, o) => answer(p, o, p.msgTemplate),
  };
  return { sender, texted, requests, setFailAt: (n: number) => (failAt = n) };
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
  it('sends 2500 recipients as one job in parts of 1000, 1000 and 500, all under its key', async () => {
    const { sender, requests } = jobGateway();
    const summary = await sendInBatches(sender, numbers(2500), 'hello', { key: 'promo' });
    expect(requests.map((s) => s.key)).toEqual(['promo', 'promo', 'promo']);
    expect(requests.map((s) => s.numbers.length)).toEqual([1000, 1000, 500]);
    expect(summary).toMatchObject({
      jobId: 'job-promo',
      recipientsDone: 2500,
      queued: 2500,
      added: 2500,
      earlier: 0,
      replayed: false,
      estimatedCost: 20.75,
    });
  });

  it('reports progress by recipient after each part, ending at the total', async () => {
    const { sender } = jobGateway();
    const seen: BatchProgress[] = [];
    await sendInBatches(sender, numbers(25), 'hi', {
      key: 'k',
      batchSize: 10,
      onProgress: (p) => seen.push(p),
    });
    expect(seen.map((p) => p.recipientsDone)).toEqual([0, 10, 20, 25]);
    expect(new Set(seen.map((p) => p.recipientsTotal))).toEqual(new Set([25]));
  });

  it('says a re-run sent nothing now, and counts who the job had earlier', async () => {
    const { sender } = jobGateway();
    await sendInBatches(sender, numbers(3), 'hi', { key: 'k' });
    const again = await sendInBatches(sender, numbers(3), 'hi', { key: 'k' });
    expect(again).toMatchObject({ replayed: true, queued: 0, added: 0, earlier: 3 });
    const grown = await sendInBatches(sender, numbers(4), 'hi', { key: 'k' });
    expect(grown).toMatchObject({ replayed: false, queued: 1, added: 1, earlier: 3 });
  });

  it('reaches everyone exactly once through an interruption, another batch size and a grown audience', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 0, max: 8 }),
        async (size, grow, firstBatch, secondBatch, failAt) => {
          const gateway = jobGateway(failAt);
          const audience = numbers(size);
          await sendInBatches(gateway.sender, audience, 'hi', {
            key: 'k',
            batchSize: firstBatch,
          }).catch(() => undefined);
          gateway.setFailAt(-1);
          const grown = [...numbers(grow, 500), ...audience];
          const summary = await sendInBatches(gateway.sender, grown, 'hi', {
            key: 'k',
            batchSize: secondBatch,
          });
          expect([...gateway.texted].sort()).toEqual([...grown].sort());
          expect(summary.added + summary.earlier).toBe(grown.length);
        },
      ),
    );
  });

  it('stops at a failed part and sends no later one', async () => {
    const gateway = jobGateway(1);
    await expect(
      sendInBatches(gateway.sender, numbers(60), 'hi', { key: 'k', batchSize: 10 }),
    ).rejects.toBeInstanceOf(ServerError);
    expect(gateway.requests).toHaveLength(2);
  });

  it('sends a template as WhatsApp', async () => {
    const { sender, requests } = jobGateway();
    const template = { name: 'promo', language: 'en', components: [] };
    await sendInBatches(sender, [{ number: '+15550000001' }], template, { key: 'w' });
    expect(requests[0]?.template).toEqual(template);
  });

  it('refuses a channel that contradicts the content, a bad batch size and an empty key', async () => {
    const { sender } = jobGateway();
    await expect(
      sendInBatches(sender, numbers(1), 'hi', { key: 'k', channel: 'whatsapp' }),
    ).rejects.toThrow(/channel 'whatsapp'/);
    await expect(
      sendInBatches(sender, numbers(1), 'hi', { key: 'k', batchSize: 0 }),
    ).rejects.toThrow(/batchSize/);
    await expect(
      sendInBatches(sender, numbers(1), 'hi', { key: 'k', batchSize: 100_001 }),
    ).rejects.toThrow(/batchSize/);
    await expect(sendInBatches(sender, numbers(1), 'hi', { key: '' })).rejects.toThrow(/key/);
  });
});
