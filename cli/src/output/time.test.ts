import { describe, expect, it } from 'vitest';
import { withIsoTimes } from './time.js';

describe('withIsoTimes', () => {
  it('writes every instant field as ISO 8601 with an offset, at any depth, and leaves the rest', () => {
    const out = withIsoTimes({
      jobId: 'j',
      total: 3,
      createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
      sendAt: null,
      waiting: { reason: 'scheduled', until: Date.UTC(2026, 0, 3) },
      recipients: [{ seq: 1, sentAt: Date.UTC(2026, 0, 2), segments: 2 }],
    }) as Record<string, unknown>;
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;
    expect(out.createdAt).toMatch(iso);
    expect(Date.parse(out.createdAt as string)).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect((out.waiting as { until: string }).until).toMatch(iso);
    expect((out.recipients as { sentAt: string; segments: number }[])[0]).toMatchObject({
      sentAt: expect.stringMatching(iso),
      segments: 2,
    });
    expect(out).toMatchObject({ jobId: 'j', total: 3, sendAt: null });
  });
});
