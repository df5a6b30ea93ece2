// The notifications screen's first section: the sends started from this tab and how far each got.
import { useTranslation } from 'react-i18next';
import { useRecentSendJobs } from '../../hooks/admin/useRecentSendJobs.js';
import { useFormat } from '../../hooks/useFormat.js';

export function RecentSends() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const jobs = useRecentSendJobs();
  return (
    <section className="admin-section" aria-labelledby="recent-sends-heading">
      <h2 id="recent-sends-heading">{t('admin.notifications.recentSends')}</h2>
      {jobs.length === 0 ? (
        <p>{t('admin.notifications.noRecentSends')}</p>
      ) : (
        <ul className="job-list">
          {jobs.map(({ jobId, job, failed }) => {
            // Handed to the provider, whatever it reported since.
            const sent = ['sent', 'delivered', 'undelivered'].reduce(
              (sum, state) => sum + (job?.counts[state] ?? 0),
              0,
            );
            return (
              <li key={jobId} data-testid="send-job" data-done={job?.done ? 'true' : 'false'}>
                {failed || !job ? (
                  <span>{failed ? t('admin.notifications.jobUnknown') : t('common.loading')}</span>
                ) : (
                  <>
                    <span>
                      {t(`admin.sendSms.${job.channel}`)} ·{' '}
                      {fmt.dateTime(new Date(job.createdAt).getTime())}
                    </span>
                    <progress value={sent} max={Math.max(job.total, 1)} aria-label={jobId} />
                    <span>
                      {job.done
                        ? t('admin.notifications.jobDone', { sent, total: job.total })
                        : t('admin.notifications.jobProgress', { sent, total: job.total })}
                    </span>
                  </>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
