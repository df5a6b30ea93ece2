// The recent send jobs as the gateway lists them (not only this tab's): each job's phase, its
// recipients by state on a bar that fills from queued to sent to delivered, why some failed, and
// Cancel for a scheduled job that has not started.
import { PROVIDER_ERROR_MEANINGS, type SendJobSummary } from '@blockcatch/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/admin/Spinner.js';
import { useToast } from '../../components/ui/Toast.js';
import { useFormat } from '../../hooks/useFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';
import { REPORT_RECIPIENTS, sendQueries } from './queries.js';
import { StackedProgress } from './StackedProgress.js';
import {
  canCancel,
  type FailureReason,
  failureReasons,
  type JobTally,
  jobPhase,
  reasonKey,
  tallyJob,
} from './send-jobs.js';

export function RecentSends() {
  const { t } = useTranslation();
  const jobs = useQuery(sendQueries.sendJobs());
  return (
    <section className="admin-section" aria-labelledby="recent-sends-heading">
      <h2 id="recent-sends-heading">{t('admin.sendJobs.title')}</h2>
      {jobs.status === 'pending' ? (
        <Spinner />
      ) : jobs.status === 'error' ? (
        <p className="error-text">{errorMessage(t, jobs.error, t('admin.sendJobs.loadFailed'))}</p>
      ) : jobs.data.length === 0 ? (
        <p>{t('admin.sendJobs.none')}</p>
      ) : (
        <ul className="job-list">
          {jobs.data.map((job) => (
            <JobItem key={job.jobId} job={job} />
          ))}
        </ul>
      )}
    </section>
  );
}

const STATES = ['queued', 'sent', 'delivered', 'failed', 'skipped', 'cancelled'] as const;

function JobItem({ job }: { job: SendJobSummary }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const toast = useToast();
  const queryClient = useQueryClient();
  const now = Date.now();
  const phase = jobPhase(job, now);
  const tally = tallyJob(job);
  const cancel = useMutation({
    mutationFn: () => gateway.sends.cancel(job.jobId),
    onSuccess: () => toast.show('success', t('admin.sendJobs.cancelled')),
    onError: (error) =>
      toast.show('error', errorMessage(t, error, t('admin.sendJobs.cancelFailed'))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sendQueries.sendJobs().queryKey }),
  });
  const badge =
    phase === 'done'
      ? tally.failed > 0
        ? 'badge-warn'
        : 'badge-ok'
      : phase === 'cancelled'
        ? 'badge-danger'
        : 'badge-info';

  return (
    <li
      className="job card"
      data-testid="send-job"
      data-job-id={job.jobId}
      data-phase={phase}
      data-done={job.done ? 'true' : 'false'}
    >
      <div className="job-head">
        <span className={`badge ${badge}`}>
          {phase === 'scheduled' && job.sendAt !== null
            ? t('admin.sendJobs.phase.scheduled', { when: fmt.dateTime(job.sendAt) })
            : t(`admin.sendJobs.phase.${phase}`)}
        </span>
        <span className="badge">{t(`admin.sendSms.${job.channel}`)}</span>
        <span className="hint">
          {t('admin.sendJobs.created', { when: fmt.dateTime(job.createdAt) })}
        </span>
        {canCancel(job, now) && (
          <button
            type="button"
            className="btn danger"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate()}
          >
            {t('admin.sendJobs.cancel')}
          </button>
        )}
      </div>
      <p className="job-body">
        {job.templateName ? `(${job.templateName}) ${job.body}` : job.body}
      </p>
      <StackedProgress
        tally={tally}
        label={t('admin.sendJobs.progress', {
          delivered: fmt.count(tally.delivered),
          total: fmt.count(tally.total),
        })}
      />
      <ul className="job-counts">
        {STATES.filter((state) => state !== 'cancelled' || tally.cancelled > 0).map((state) => (
          <li key={state} data-state={state}>
            <span className={`dot dot-${state}`} aria-hidden="true" />
            {t(`admin.sendJobs.state.${state}`)} <strong>{fmt.count(tally[state])}</strong>
          </li>
        ))}
      </ul>
      {tally.failed + tally.skipped > 0 && <FailureDetails job={job} tally={tally} />}
    </li>
  );
}

/** Read on demand: a job's report is a page of recipients, more than the list needs. */
function FailureDetails({ job, tally }: { job: SendJobSummary; tally: JobTally }) {
  const { t } = useTranslation();
  return (
    <details className="job-reasons">
      <summary>{t('admin.sendJobs.reasons')}</summary>
      <Reasons jobId={job.jobId} version={`${tally.failed}/${tally.skipped}`} />
    </details>
  );
}

function Reasons({ jobId, version }: { jobId: string; version: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const report = useQuery(sendQueries.sendJobReport(jobId, version));
  if (report.status === 'pending') return <Spinner />;
  if (report.status === 'error') {
    return (
      <p className="error-text">
        {errorMessage(t, report.error, t('admin.sendJobs.reasonsFailed'))}
      </p>
    );
  }
  return (
    <>
      <ul data-testid="failure-reasons">
        {failureReasons(report.data.recipients).map(({ reason, count }) => (
          <li key={reasonKey(reason)}>
            {reasonText(t, reason)}: <strong>{fmt.count(count)}</strong>
          </li>
        ))}
      </ul>
      {report.data.more && (
        <p className="hint">{t('admin.sendJobs.reasonsPartial', { count: REPORT_RECIPIENTS })}</p>
      )}
    </>
  );
}

function reasonText(
  t: (key: string, values?: Record<string, unknown>) => string,
  reason: FailureReason,
) {
  if (reason.kind === 'skipped') return t(`admin.sendJobs.reason.${reason.state}`);
  if (reason.kind === 'other') return reason.text ?? t('admin.sendJobs.reason.other');
  const meaning =
    reason.code in PROVIDER_ERROR_MEANINGS
      ? t(`admin.sendJobs.providerError.${reason.code}`)
      : t('admin.sendJobs.reason.unknownProvider');
  return t('admin.sendJobs.reason.provider', { meaning, code: reason.code });
}
