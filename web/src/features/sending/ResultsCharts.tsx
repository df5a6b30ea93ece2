// The Sends page's charts (recharts, loaded with this file only): delivered and failed per week,
// failures by reason, opt-outs and cost, and clicks on tracked links with the renewals and revenue
// they led to.
import type { WeekResult } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useFormat } from '../../hooks/useFormat.js';

const COLORS = ['#2f6f4f', '#b3261e', '#c77700', '#5b4fa3', '#00799e', '#7a5c3e'];
const HEIGHT = 240;

export default function ResultsCharts({ weeks }: { weeks: readonly WeekResult[] }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const reasons = [...new Set(weeks.flatMap((w) => Object.keys(w.failedByReason)))].sort();
  const rows = weeks.map((w) => ({
    ...w,
    ...Object.fromEntries(reasons.map((r) => [`reason:${r}`, w.failedByReason[r] ?? 0])),
  }));
  const reasonLabel = (reason: string) =>
    /^\d+$/.test(reason)
      ? t('admin.sends.errorCode', { code: reason })
      : t(`admin.sends.state.${reason}`);
  return (
    <div className="results-charts">
      <figure>
        <figcaption>{t('admin.sends.deliveredFailed')}</figcaption>
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <BarChart data={rows}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="week" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Legend />
            <Bar
              dataKey="delivered"
              name={t('admin.sends.delivered')}
              stackId="a"
              fill={COLORS[0]}
            />
            <Bar dataKey="failed" name={t('admin.sends.failed')} stackId="a" fill={COLORS[1]} />
          </BarChart>
        </ResponsiveContainer>
      </figure>
      {reasons.length > 0 && (
        <figure>
          <figcaption>{t('admin.sends.failedByReason')}</figcaption>
          <ResponsiveContainer width="100%" height={HEIGHT}>
            <BarChart data={rows}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="week" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Legend />
              {reasons.map((reason, i) => (
                <Bar
                  key={reason}
                  dataKey={`reason:${reason}`}
                  name={reasonLabel(reason)}
                  stackId="r"
                  fill={COLORS[(i + 1) % COLORS.length]}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </figure>
      )}
      <figure>
        <figcaption>{t('admin.sends.optOutsAndCost')}</figcaption>
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <LineChart data={rows}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="week" />
            <YAxis yAxisId="people" allowDecimals={false} />
            <YAxis
              yAxisId="money"
              orientation="right"
              tickFormatter={(v: number) => fmt.money(v)}
            />
            <Tooltip />
            <Legend />
            <Line
              yAxisId="people"
              dataKey="optedOut"
              name={t('admin.sends.optedOut')}
              stroke={COLORS[2]}
            />
            <Line yAxisId="money" dataKey="cost" name={t('admin.sends.cost')} stroke={COLORS[3]} />
          </LineChart>
        </ResponsiveContainer>
      </figure>
      <figure>
        <figcaption>{t('admin.sends.clicksAndRevenue')}</figcaption>
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <LineChart data={rows}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="week" />
            <YAxis yAxisId="people" allowDecimals={false} />
            <YAxis
              yAxisId="money"
              orientation="right"
              tickFormatter={(v: number) => fmt.money(v)}
            />
            <Tooltip />
            <Legend />
            <Line
              yAxisId="people"
              dataKey="clicks"
              name={t('admin.sends.clicks')}
              stroke={COLORS[4]}
            />
            <Line
              yAxisId="people"
              dataKey="conversions"
              name={t('admin.sends.conversions')}
              stroke={COLORS[0]}
            />
            <Line
              yAxisId="money"
              dataKey="revenue"
              name={t('admin.sends.revenue')}
              stroke={COLORS[5]}
            />
          </LineChart>
        </ResponsiveContainer>
      </figure>
    </div>
  );
}
