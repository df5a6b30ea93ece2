// The driver's private calendar address on /flex/calendar: make one (shown this once, to copy into
// Google or Apple Calendar), make a new one, which stops the old, or turn it off.
import type { CalendarFeedCreated } from '@blockcatch/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../components/ui/Toast.js';
import { useFormat } from '../../hooks/useFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';

const FEED_KEY = ['driver', 'calendar-feed'] as const;

export function CalendarFeed() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const { show } = useToast();
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: FEED_KEY, queryFn: () => gateway.driver.calendarFeed() });
  // The address exists only in the answer that made it.
  const [made, setMade] = useState<CalendarFeedCreated | null>(null);
  const settled = () => queryClient.invalidateQueries({ queryKey: FEED_KEY });
  const create = useMutation({
    mutationFn: () => gateway.driver.createCalendarFeed(),
    onSuccess: async (created) => {
      setMade(created);
      await settled();
    },
  });
  const revoke = useMutation({
    mutationFn: () => gateway.driver.revokeCalendarFeed(),
    onSuccess: async () => {
      setMade(null);
      await settled();
    },
  });
  const failed = create.error ?? revoke.error;
  const busy = create.isPending || revoke.isPending;
  const copy = async (url: string) => {
    await navigator.clipboard.writeText(url);
    show('success', t('flex.calendar.feed.copied'));
  };
  const active = state.data?.active === true;
  return (
    <section className="calendar-feed" aria-labelledby="calendar-feed-title">
      <h2 id="calendar-feed-title">{t('flex.calendar.feed.title')}</h2>
      <p className="muted">{t('flex.calendar.feed.hint')}</p>
      {made ? (
        <div className="field">
          <label htmlFor="calendar-feed-url">{t('flex.calendar.feed.address')}</label>
          <div className="input-unit">
            <input
              id="calendar-feed-url"
              readOnly
              value={made.url}
              onFocus={(e) => e.target.select()}
            />
            <button type="button" onClick={() => void copy(made.url)}>
              {t('flex.calendar.feed.copy')}
            </button>
          </div>
        </div>
      ) : (
        state.data && (
          <p>
            {active && state.data.createdAt !== null
              ? t('flex.calendar.feed.active', { date: fmt.date(state.data.createdAt) })
              : t('flex.calendar.feed.none')}
          </p>
        )
      )}
      <p className="muted">{t('flex.calendar.feed.private')}</p>
      {failed && (
        <p role="alert" className="field-error">
          {errorMessage(t, failed, t('flex.calendar.feed.failed'))}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          className="primary"
          disabled={busy || state.isPending}
          onClick={() => create.mutate()}
        >
          {active ? t('flex.calendar.feed.remake') : t('flex.calendar.feed.make')}
        </button>
        {active && (
          <button type="button" disabled={busy} onClick={() => revoke.mutate()}>
            {t('flex.calendar.feed.revoke')}
          </button>
        )}
      </div>
    </section>
  );
}
