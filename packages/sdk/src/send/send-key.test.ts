import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveSendKey } from './send-key.js';

const phone = fc.integer({ min: 2_000_000_000, max: 9_999_999_999 }).map((n) => `+1${n}`);
const phones = fc.uniqueArray(phone, { minLength: 1, maxLength: 30 });
const day = fc
  .date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2099-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

describe('deriveSendKey', () => {
  it('gives the same key whatever the order, notation or repetition of the recipients', async () => {
    await fc.assert(
      fc.asyncProperty(phones, fc.string(), day, async (numbers, text, d) => {
        const shuffled = [...numbers].reverse().map((n, i) => (i % 2 ? n.slice(2) : n));
        const a = await deriveSendKey({
          channel: 'sms',
          content: text,
          recipients: numbers,
          day: d,
        });
        const b = await deriveSendKey({
          channel: 'sms',
          content: text,
          recipients: [...shuffled, ...numbers.map((number) => ({ number }))],
          day: d,
        });
        expect(a).toBe(b);
      }),
    );
  });

  it('gives a different key when the message, the recipient set or the day changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        phones,
        phone,
        fc.string(),
        fc.string(),
        day,
        day,
        async (numbers, extra, t1, t2, d1, d2) => {
          const base = { channel: 'sms' as const, content: t1, recipients: numbers, day: d1 };
          const key = await deriveSendKey(base);
          if (t1 !== t2) expect(await deriveSendKey({ ...base, content: t2 })).not.toBe(key);
          if (d1 !== d2) expect(await deriveSendKey({ ...base, day: d2 })).not.toBe(key);
          if (!numbers.includes(extra)) {
            expect(await deriveSendKey({ ...base, recipients: [...numbers, extra] })).not.toBe(key);
          }
        },
      ),
    );
  });

  it('is a short key the gateway accepts, naming the day', async () => {
    await fc.assert(
      fc.asyncProperty(phones, fc.string(), day, async (numbers, text, d) => {
        const key = await deriveSendKey({
          channel: 'sms',
          content: text,
          recipients: numbers,
          day: d,
        });
        expect(key).toMatch(new RegExp(`^auto-${d}-[0-9a-f]{32}$`));
        expect(`${key}:99999`.length).toBeLessThanOrEqual(200);
      }),
    );
  });

  it('tells an SMS from a WhatsApp template with the same words', async () => {
    const recipients = ['+13055550123'];
    const sms = await deriveSendKey({
      channel: 'sms',
      content: 'hola',
      recipients,
      day: '2026-01-02',
    });
    const wa = await deriveSendKey({
      channel: 'whatsapp',
      content: { name: 'hola', language: 'es', components: [{ type: 'BODY', text: 'hola' }] },
      recipients,
      day: '2026-01-02',
    });
    expect(sms).not.toBe(wa);
  });

  it('refuses a day that is not YYYY-MM-DD', async () => {
    await expect(
      deriveSendKey({ channel: 'sms', content: 'x', recipients: [], day: '2/1/2026' }),
    ).rejects.toThrow(RangeError);
  });
});
