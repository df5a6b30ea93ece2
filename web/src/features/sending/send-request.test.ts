import type { WhatsappTemplate } from '@blockcatch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectEvery, toggleSelected } from '../../lib/admin/selection.js';
import {
  buildSendRequest,
  isComposed,
  sendAtFromLocal,
  templatePreview,
  templateSummary,
} from './send-request.js';

const template: WhatsappTemplate = {
  id: '1',
  name: 'service_expiring',
  language: 'en_US',
  components: [
    { type: 'HEADER', text: 'Your BlockCatch week ends soon' },
    { type: 'BODY', text: 'Hi {{1}}, renew now.' },
  ],
};

describe('buildSendRequest', () => {
  it('sends exactly the selected phones, each once, in list order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('+12025550001', '+12025550002', '+12025550003', '+12025550004')),
        fc.subarray(['+12025550001', '+12025550002', '+12025550003', '+12025550004']),
        (list, chosen) => {
          const rows = list.map((phoneNumber) => ({ phoneNumber }));
          const request = buildSendRequest(
            { channel: 'sms', message: 'Hi' },
            rows,
            new Set(chosen),
          );
          const numbers = request.payload.numbers.map((n) => n.number);
          expect(new Set(numbers).size).toBe(numbers.length);
          expect(new Set(numbers)).toEqual(new Set(list.filter((p) => chosen.includes(p))));
          expect(numbers).toEqual([...new Set(list)].filter((p) => chosen.includes(p)));
        },
      ),
    );
  });

  it('drops the deselected rows from an SMS payload', () => {
    const rows = ['+12025550001', '+12025550002', '+12025550003'].map((phoneNumber) => ({
      phoneNumber,
    }));
    const selected = toggleSelected(selectEvery(rows), '+12025550002');
    expect(buildSendRequest({ channel: 'sms', message: 'Hello' }, rows, selected)).toEqual({
      channel: 'sms',
      payload: {
        numbers: [{ number: '+12025550001' }, { number: '+12025550003' }],
        message: 'Hello',
      },
    });
  });

  it('names a WhatsApp template by language, name and components, without its id', () => {
    const request = buildSendRequest(
      { channel: 'whatsapp', template },
      [{ phoneNumber: '+1' }],
      new Set(['+1']),
    );
    expect(request).toEqual({
      channel: 'whatsapp',
      payload: {
        numbers: [{ number: '+1' }],
        msgTemplate: {
          language: 'en_US',
          name: 'service_expiring',
          components: template.components,
        },
      },
    });
  });
});

describe('templates and composing', () => {
  it('summarises a template by its header and previews header and body', () => {
    expect(templateSummary(template)).toBe('Your BlockCatch week ends soon');
    expect(templatePreview(template)).toBe(
      'Your BlockCatch week ends soon\n\nHi {{1}}, renew now.',
    );
  });

  it('cuts a long summary short', () => {
    const long = { ...template, components: [{ type: 'BODY' as const, text: 'x'.repeat(100) }] };
    expect(templateSummary(long)).toHaveLength(60);
  });

  it('needs non-blank SMS text before review', () => {
    expect(isComposed({ channel: 'sms', message: '   ' })).toBe(false);
    expect(isComposed({ channel: 'sms', message: 'Hi' })).toBe(true);
    expect(isComposed(null)).toBe(false);
  });
});

describe('sendAtFromLocal', () => {
  const now = new Date('2026-11-24T12:00').getTime();

  it('is now (no sendAt) when the field is empty', () => {
    expect(sendAtFromLocal('', now)).toEqual({ ok: true });
  });

  it('reads the field on the browser clock and sends the instant', () => {
    const answer = sendAtFromLocal('2026-12-01T09:00', now);
    expect(answer).toEqual({ ok: true, sendAt: new Date('2026-12-01T09:00').toISOString() });
  });

  it('refuses a time that is not in the future, or not a date-time', () => {
    expect(sendAtFromLocal('2026-11-24T12:00', now)).toEqual({ ok: false });
    expect(sendAtFromLocal('2026-11-01T09:00', now)).toEqual({ ok: false });
    expect(sendAtFromLocal('tomorrow', now)).toEqual({ ok: false });
  });

  it('puts sendAt on the payload only when given', () => {
    const rows = [{ phoneNumber: '+12025550001' }];
    const sms = { channel: 'sms', message: 'Hi' } as const;
    expect(buildSendRequest(sms, rows, selectEvery(rows)).payload).not.toHaveProperty('sendAt');
    const later = '2026-12-01T14:00:00.000Z';
    expect(buildSendRequest(sms, rows, selectEvery(rows), later).payload.sendAt).toBe(later);
  });

  it("keeps the wall-clock time for each recipient's own zone, and says so on the payload", () => {
    expect(sendAtFromLocal('2026-12-01T10:00', now, true)).toEqual({
      ok: true,
      sendAt: '2026-12-01T10:00',
    });
    expect(sendAtFromLocal('2026-11-01T10:00', now, true)).toEqual({ ok: false });
    const rows = [{ phoneNumber: '+12025550001' }];
    const sms = { channel: 'sms', message: 'Hi' } as const;
    const local = buildSendRequest(sms, rows, selectEvery(rows), '2026-12-01T10:00', true);
    expect(local.payload).toMatchObject({ sendAt: '2026-12-01T10:00', localTime: true });
    const plain = buildSendRequest(sms, rows, selectEvery(rows), '2026-12-01T15:00:00.000Z');
    expect(plain.payload).not.toHaveProperty('localTime');
  });
});
