import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveSendKey } from './send-key.js';

const day = fc
  .date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2099-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

describe('deriveSendKey', () => {
  it('gives the same key for the same content and day, so a grown audience joins the same job', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), day, async (text, d) => {
        const a = await deriveSendKey({ channel: 'sms', content: text, day: d });
        const b = await deriveSendKey({ channel: 'sms', content: text, day: d });
        expect(a).toBe(b);
      }),
    );
  });

  it('gives a different key when the message, the schedule or the day changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.string(),
        day,
        day,
        fc.option(fc.constantFrom('2026-12-01T09:00', '2026-12-02T09:00'), { nil: undefined }),
        async (t1, t2, d1, d2, at) => {
          const base = { channel: 'sms' as const, content: t1, day: d1 };
          const key = await deriveSendKey(base);
          if (t1 !== t2) expect(await deriveSendKey({ ...base, content: t2 })).not.toBe(key);
          if (d1 !== d2) expect(await deriveSendKey({ ...base, day: d2 })).not.toBe(key);
          if (at !== undefined) expect(await deriveSendKey({ ...base, sendAt: at })).not.toBe(key);
        },
      ),
    );
  });

  it('tells template values apart, in any order', async () => {
    const template = { name: 'promo', language: 'en', components: [] };
    const a = await deriveSendKey({
      channel: 'whatsapp',
      content: { ...template, values: { a: '1', b: '2' } },
      day: '2026-01-02',
    });
    const b = await deriveSendKey({
      channel: 'whatsapp',
      content: { ...template, values: { b: '2', a: '1' } },
      day: '2026-01-02',
    });
    const c = await deriveSendKey({
      channel: 'whatsapp',
      content: { ...template, values: { a: '1', b: '3' } },
      day: '2026-01-02',
    });
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('is a short key the gateway accepts, naming the day', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), day, async (text, d) => {
        const key = await deriveSendKey({ channel: 'sms', content: text, day: d });
        expect(key).toMatch(new RegExp(`^auto-${d}-[0-9a-f]{32}$`));
        expect(key.length).toBeLessThanOrEqual(200);
      }),
    );
  });

  it('tells an SMS from a WhatsApp template with the same words', async () => {
    const sms = await deriveSendKey({ channel: 'sms', content: 'hola', day: '2026-01-02' });
    const wa = await deriveSendKey({
      channel: 'whatsapp',
      content: { name: 'hola', language: 'es', components: [{ type: 'BODY', text: 'hola' }] },
      day: '2026-01-02',
    });
    expect(sms).not.toBe(wa);
  });

  it('refuses a day that is not YYYY-MM-DD', async () => {
    await expect(deriveSendKey({ channel: 'sms', content: 'x', day: '2/1/2026' })).rejects.toThrow(
      RangeError,
    );
  });
});
