// How a send job reads on the admin screens: its phase (scheduled, sending, done, cancelled), its
// recipients tallied into the stages a progress bar moves through (queued → sent → delivered, and
// the ones that failed or were skipped), why recipients failed, and how often to ask again.
import {
  FAILED_STATES,
  RECIPIENT_STATES,
  type RecipientState,
  type SendJobSummary,
  type SendRecipientRow,
  WAITING_STATES,
} from '@blockcatch/sdk';

export type JobPhase = 'scheduled' | 'sending' | 'done' | 'cancelled';

/** A scheduled job has a start in the future; one that has started is sending until done. */
export function jobPhase(job: SendJobSummary, now: number): JobPhase {
  if (job.cancelledAt !== null) return 'cancelled';
  if (job.done) return 'done';
  if (job.sendAt !== null && job.sendAt > now) return 'scheduled';
  return 'sending';
}

/** Only a job that has not started can be cancelled (the gateway refuses the others). */
export function canCancel(job: SendJobSummary, now: number): boolean {
  return jobPhase(job, now) === 'scheduled';
}

export interface JobTally {
  total: number;
  /** Accepted and waiting for its turn (or being handed over now). */
  queued: number;
  /** Handed to the provider, not yet reported delivered. */
  sent: number;
  delivered: number;
  /** Failed or undelivered, as the provider reported. */
  failed: number;
  /** Opted out, landline, invalid, no consent or over the weekly cap: never sent. */
  skipped: number;
  cancelled: number;
}

const SKIPPED = new Set<RecipientState>(
  RECIPIENT_STATES.filter((state): state is SkippedState => state.startsWith('skipped-')),
);

const count = (job: SendJobSummary, states: readonly RecipientState[]) =>
  states.reduce((sum, state) => sum + (job.counts[state] ?? 0), 0);

export function tallyJob(job: SendJobSummary): JobTally {
  return {
    total: job.total,
    queued: count(job, WAITING_STATES),
    sent: count(job, ['sent']),
    delivered: count(job, ['delivered']),
    failed: count(job, FAILED_STATES),
    skipped: count(job, [...SKIPPED]),
    cancelled: count(job, ['cancelled']),
  };
}

/**
 * The progress bar's segments, as percentages of the job's recipients, in the order they are
 * drawn: delivered, then sent, then failed and skipped; the rest of the bar is still queued.
 */
export function progressSegments(tally: JobTally): {
  delivered: number;
  sent: number;
  failed: number;
  skipped: number;
} {
  const of = (n: number) => (tally.total === 0 ? 0 : (100 * n) / tally.total);
  return {
    delivered: of(tally.delivered),
    sent: of(tally.sent),
    failed: of(tally.failed),
    skipped: of(tally.skipped + tally.cancelled),
  };
}

/** Every 2 s while a job is sending; a scheduled job is looked at again when it is due. */
export const ACTIVE_REFETCH_MS = 2000;
const IDLE_REFETCH_MS = 60_000;

export function jobsRefetchInterval(
  jobs: readonly SendJobSummary[] | undefined,
  now: number,
): number | false {
  if (!jobs) return false;
  let next: number | false = false;
  for (const job of jobs) {
    const phase = jobPhase(job, now);
    if (phase === 'sending') return ACTIVE_REFETCH_MS;
    if (phase === 'scheduled' && job.sendAt !== null) {
      const due = Math.min(Math.max(job.sendAt - now, ACTIVE_REFETCH_MS), IDLE_REFETCH_MS);
      next = next === false ? due : Math.min(next, due);
    }
  }
  return next;
}

/** Why a recipient did not get the message: a provider error code, a skip, or the gateway's words. */
export type FailureReason =
  | { kind: 'provider'; code: number; text: string | null }
  | { kind: 'skipped'; state: SkippedState }
  | { kind: 'other'; text: string | null };

type SkippedState = Extract<RecipientState, `skipped-${string}`>;

/** One key per distinct reason (a React key, and how reasons are grouped). */
export function reasonKey(reason: FailureReason): string {
  if (reason.kind === 'provider') return `p${reason.code}`;
  return reason.kind === 'skipped' ? reason.state : `o${reason.text ?? ''}`;
}

/** The failed and skipped recipients grouped by reason, the most frequent first. */
export function failureReasons(
  rows: readonly SendRecipientRow[],
): { reason: FailureReason; count: number }[] {
  const groups = new Map<string, { reason: FailureReason; count: number }>();
  for (const row of rows) {
    let reason: FailureReason;
    if (SKIPPED.has(row.status)) {
      reason = {
        kind: 'skipped',
        state: row.status as Extract<FailureReason, { kind: 'skipped' }>['state'],
      };
    } else if (FAILED_STATES.includes(row.status)) {
      reason =
        row.errorCode === null
          ? { kind: 'other', text: row.error }
          : { kind: 'provider', code: row.errorCode, text: row.error };
    } else continue;
    const key = reasonKey(reason);
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { reason, count: 1 });
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}
