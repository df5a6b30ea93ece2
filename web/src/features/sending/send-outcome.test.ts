import { describe, expect, it } from 'vitest';
import { reasonsText, sendOutcomeText } from './send-outcome.js';

const t = (key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key;
const when = (ts: number) => new Date(ts).toISOString();

describe('sendOutcomeText', () => {
  it('says queued, never sent, with the count the gateway queued', () => {
    expect(sendOutcomeText(t, when, { jobId: 'j', queued: 3 }, 5)).toBe(
      'admin.sendSms.queued {"count":3}',
    );
  });

  it('says a send waits for approval rather than that it was queued', () => {
    expect(sendOutcomeText(t, when, { queued: 3, pendingApproval: true }, 3)).toBe(
      'admin.sendSms.pendingApproval {"count":3}',
    );
  });

  it('says when a scheduled send starts', () => {
    const text = sendOutcomeText(t, when, { queued: 2, sendAt: Date.UTC(2026, 11, 1, 14) }, 2);
    expect(text).toBe('admin.sendSms.scheduled {"count":2,"when":"2026-12-01T14:00:00.000Z"}');
  });

  it('counts the skipped by reason and those waiting for quiet hours', () => {
    const text = sendOutcomeText(
      t,
      when,
      {
        queued: 4,
        skipped: [
          { number: '+13055550100', reason: 'opted-out' },
          { number: '123', reason: 'invalid' },
          { number: '+13055550101', reason: 'opted-out' },
        ],
        waitingForQuietHours: 4,
      },
      7,
    );
    expect(text).toContain('admin.sendSms.skipped {"count":3');
    expect(text).toContain('admin.review.reason.opted-out (2), admin.review.reason.invalid (1)');
    expect(text).toContain('admin.sendSms.waitingForQuietHours {"count":4}');
  });
});

describe('reasonsText', () => {
  it('names each reason the review leaves people out for, with how many, in the order first seen', () => {
    const reasons = ['no-consent', 'weekly-cap', 'no-consent', 'opted-out', 'no-consent'];
    expect(reasonsText(t, reasons)).toBe(
      'admin.review.reason.no-consent (3), admin.review.reason.weekly-cap (1), admin.review.reason.opted-out (1)',
    );
  });
});
