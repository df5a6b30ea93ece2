// /admin/sends: what admin sends did over the weeks — delivered, failed by reason, opt-outs, clicks,
// renewals, revenue and cost per week as charts (their library loads with this page only), and each
// send in a table.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/admin/Spinner.js';
import { Table } from '../../components/ui/Table.js';
import { useFormat } from '../../hooks/useFormat.js';
import { gateway } from '../../sdk.js';

const ResultsCharts = lazy(() => import('./ResultsCharts.js'));
const RANGES = [4, 12, 26, 52] as const;

export default function SendsPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const rangeId = useId();
  const [weeks, setWeeks] = useState<number>(12);
  const results = useQuery({
    queryKey: ['admin', 'sendResults', weeks],
    queryFn: () => gateway.sends.results(weeks),
  });
  const data = results.data;
  return (
    <main className="page admin-page">
      <h1>{t('admin.sends.title')}</h1>
      <div className="toolbar">
        <div className="field">
          <label htmlFor={rangeId}>{t('admin.sends.range')}</label>
          <select id={rangeId} value={weeks} onChange={(e) => setWeeks(Number(e.target.value))}>
            {RANGES.map((n) => (
              <option key={n} value={n}>
                {t('admin.sends.weeks', { count: n })}
              </option>
            ))}
          </select>
        </div>
      </div>
      {results.isPending && <Spinner />}
      {results.error != null && <p className="error-text">{t('admin.sends.loadFailed')}</p>}
      {data && (
        <>
          <Suspense fallback={<Spinner />}>
            <ResultsCharts weeks={data.weeks} />
          </Suspense>
          {data.sends.length === 0 ? (
            <p>{t('admin.sends.none')}</p>
          ) : (
            <Table caption={t('admin.sends.perSend')}>
              <thead>
                <tr>
                  <th scope="col">{t('admin.sends.when')}</th>
                  <th scope="col">{t('admin.sends.message')}</th>
                  <th scope="col">{t('admin.sends.recipients')}</th>
                  <th scope="col">{t('admin.sends.delivered')}</th>
                  <th scope="col">{t('admin.sends.failed')}</th>
                  <th scope="col">{t('admin.sends.optedOut')}</th>
                  <th scope="col">{t('admin.sends.clicks')}</th>
                  <th scope="col">{t('admin.sends.conversions')}</th>
                  <th scope="col">{t('admin.sends.revenue')}</th>
                  <th scope="col">{t('admin.sends.cost')}</th>
                </tr>
              </thead>
              <tbody>
                {data.sends.map((send) => (
                  <tr key={send.jobId} data-testid="send-result">
                    <td>{fmt.dateTime(send.createdAt)}</td>
                    <td className="message-text">{send.body}</td>
                    <td>{send.recipients}</td>
                    <td>{send.delivered}</td>
                    <td>{send.failed}</td>
                    <td>{send.optedOut}</td>
                    <td>{send.clicks}</td>
                    <td>{send.conversions}</td>
                    <td>{fmt.money(send.revenue)}</td>
                    <td>{fmt.money(send.cost)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </>
      )}
    </main>
  );
}
