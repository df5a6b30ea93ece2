import { RECIPIENT_STATES, type SendJobSummary, type SendRecipientRow } from '@blockcatch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTIVE_REFETCH_MS,
  canCancel,
  failureReasons,
  jobPhase,
  jobsRefetchInterval,
  progressSegments,
  tallyJob,
} from './send-jobs.js';

const NOW = Date.UTC(2026, 10, 24, 15);

/** Every state counted, zero unless given. */
function counts(given: Partial<SendJobSummary['counts']>): SendJobSummary['counts'] {
  return Object.fromEntries(
    RECIPIENT_STATES.map((state) => [state, given[state] ?? 0]),
  ) as SendJobSummary['counts'];
}

function job(patch: Partial<SendJobSummary> = {}): SendJobSummary {
  return {
    jobId: 'j1',
    channel: 'sms',
    createdAt: NOW - 60_000,
    createdBy: 'u1',
    body: 'Hi',
    templateName: null,
    sendAt: null,
    cancelledAt: null,
    total: 10,
    counts: counts({ queued: 10 }),
    segments: 10,
    estimatedCost: 0,
    done: false,
    ...patch,
  };
}

function row(patch: Partial<SendRecipientRow>): SendRecipientRow {
  return {
    seq: 1,
    to: '+13055550100',
    status: 'delivered',
    errorCode: null,
    error: null,
    segments: 1,
    attempts: 1,
    sentAt: NOW,
    statusAt: NOW,
    dueAt: NOW,
    ...patch,
  };
}

describe('jobPhase', () => {
  it('tells scheduled, sending, done and cancelled apart', () => {
    expect(jobPhase(job({ sendAt: NOW + 3_600_000 }), NOW)).toBe('scheduled');
    expect(jobPhase(job({ sendAt: NOW - 1000 }), NOW)).toBe('sending');
    expect(jobPhase(job(), NOW)).toBe('sending');
    expect(jobPhase(job({ done: true }), NOW)).toBe('done');
    expect(jobPhase(job({ cancelledAt: NOW, done: true }), NOW)).toBe('cancelled');
  });

  it('offers Cancel only before a scheduled job starts', () => {
    expect(canCancel(job({ sendAt: NOW + 60_000 }), NOW)).toBe(true);
    expect(canCancel(job(), NOW)).toBe(false);
    expect(canCancel(job({ sendAt: NOW + 60_000, cancelledAt: NOW }), NOW)).toBe(false);
  });
});

describe('tallyJob and progressSegments', () => {
  it('moves recipients from queued to sent to delivered, failures and skips apart', () => {
    const tally = tallyJob(
      job({
        counts: counts({
          queued: 1,
          sending: 1,
          sent: 2,
          delivered: 3,
          undelivered: 1,
          failed: 1,
          'skipped-landline': 1,
        }),
      }),
    );
    expect(tally).toMatchObject({ queued: 2, sent: 2, delivered: 3, failed: 2, skipped: 1 });
    expect(progressSegments(tally)).toEqual({ delivered: 30, sent: 20, failed: 20, skipped: 10 });
  });

  it('never fills the bar past 100% whatever the counts', () => {
    const states = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'cancelled'];
    fc.assert(
      fc.property(
        fc.array(fc.nat(1000), { minLength: states.length, maxLength: states.length }),
        (ns) => {
          const given = counts(Object.fromEntries(states.map((s, i) => [s, ns[i]!])));
          const total = ns.reduce((a, b) => a + b, 0);
          const segments = progressSegments(tallyJob(job({ total, counts: given })));
          const sum = Object.values(segments).reduce((a, b) => a + b, 0);
          expect(sum).toBeLessThanOrEqual(100 + 1e-9);
          expect(Object.values(segments).every((v) => v >= 0)).toBe(true);
        },
      ),
    );
  });
});

describe('jobsRefetchInterval', () => {
  it('asks often while a job sends, and not at all once every job is done', () => {
    expect(jobsRefetchInterval([job({ done: true }), job()], NOW)).toBe(ACTIVE_REFETCH_MS);
    expect(jobsRefetchInterval([job({ done: true })], NOW)).toBe(false);
    expect(jobsRefetchInterval(undefined, NOW)).toBe(false);
  });

  it('looks again when a scheduled job is due, at most a minute later', () => {
    expect(jobsRefetchInterval([job({ sendAt: NOW + 10_000 })], NOW)).toBe(10_000);
    expect(jobsRefetchInterval([job({ sendAt: NOW + 86_400_000 })], NOW)).toBe(60_000);
  });
});

describe('failureReasons', () => {
  it('groups failed and skipped recipients by reason, the most frequent first', () => {
    const reasons = failureReasons([
      row({ status: 'delivered' }),
      row({ status: 'undelivered', errorCode: 30003, error: 'unreachable' }),
      row({ status: 'failed', errorCode: 30006, error: 'landline' }),
      row({ status: 'undelivered', errorCode: 30003, error: 'unreachable' }),
      row({ status: 'skipped-opted-out' }),
      row({ status: 'failed', error: 'no provider answer' }),
    ]);
    expect(reasons).toEqual([
      { reason: { kind: 'provider', code: 30003, text: 'unreachable' }, count: 2 },
      { reason: { kind: 'provider', code: 30006, text: 'landline' }, count: 1 },
      { reason: { kind: 'skipped', state: 'skipped-opted-out' }, count: 1 },
      { reason: { kind: 'other', text: 'no provider answer' }, count: 1 },
    ]);
  });
});
