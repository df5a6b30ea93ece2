// What the catcher made of the driver's offers over the last day and week: seen, wanted, won, lost
// to faster drivers, refused (the top rules, each linking to the filter that decides it on the
// driver's own screen), and the reaction time in plain words. The admin's view shows the same.
import type { Outcomes, OutcomeWindow } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { reactionTime } from './LatencyLine.js';

export function OutcomesSummary({
  outcomes,
  linkFilters,
}: {
  outcomes: Outcomes | undefined;
  /** On the driver's own dashboard each refusal links to its filter. */
  linkFilters: boolean;
}) {
  const { t } = useTranslation();
  if (!outcomes) return null;
  return (
    <section className="outcomes" aria-labelledby="outcomes-title">
      <h2 id="outcomes-title">{t('flex.dashboard.outcomes.title')}</h2>
      <OutcomeWindowView
        title={t('flex.dashboard.outcomes.day')}
        window={outcomes.day}
        linkFilters={linkFilters}
      />
      <OutcomeWindowView
        title={t('flex.dashboard.outcomes.week')}
        window={outcomes.week}
        linkFilters={linkFilters}
      />
    </section>
  );
}

function OutcomeWindowView({
  title,
  window: w,
  linkFilters,
}: {
  title: string;
  window: OutcomeWindow;
  linkFilters: boolean;
}) {
  const { t, i18n } = useTranslation();
  const figures = ['seen', 'matching', 'won', 'lostToFaster', 'refused'] as const;
  const time = w.medianReactionMs === null ? null : reactionTime(w.medianReactionMs, i18n.language);
  return (
    <div className="outcome-window">
      <h3>{title}</h3>
      {w.seen === 0 ? (
        <p className="muted">{t('flex.dashboard.outcomes.noOffers')}</p>
      ) : (
        <>
          <dl className="stat-grid">
            {figures.map((figure) => (
              <div key={figure}>
                <dt>{t(`flex.dashboard.outcomes.${figure}`)}</dt>
                <dd>{w[figure]}</dd>
              </div>
            ))}
          </dl>
          {w.topRefusals.length > 0 && (
            <>
              <p>{t('flex.dashboard.outcomes.topRefusals')}</p>
              <ul>
                {w.topRefusals.map((r) => (
                  <li key={r.reason}>
                    {t(`flex.offers.reasons.${r.reason}`, { defaultValue: r.reason })}: {r.count}
                    {linkFilters && r.filter && (
                      <>
                        {' '}
                        <Link to={`/flex/settings#${r.filter}`}>
                          {t('flex.dashboard.outcomes.change')}
                        </Link>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
          <p className="muted">
            {w.reaction && time
              ? t(`flex.dashboard.outcomes.reaction.${w.reaction}`, {
                  time: t(time.key, time.values),
                })
              : t('flex.dashboard.outcomes.noReaction')}
          </p>
        </>
      )}
    </div>
  );
}
