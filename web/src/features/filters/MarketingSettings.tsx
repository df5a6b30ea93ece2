// The offers-and-news section of /flex/settings: one switch for marketing texts, saved on its own.
// Saving records the answer with the switch's words in the language shown; the line under it says
// what the driver last answered, how and when.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/FormAlert.js';
import { Checkbox } from '../../components/ui/Checkbox.js';
import { useToast } from '../../components/ui/Toast.js';
import { useFormat } from '../../hooks/useFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';
import { filterQueries } from './queries.js';

export function MarketingSettings() {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const { show } = useToast();
  const queryClient = useQueryClient();
  const saved = useQuery(filterQueries.marketingConsent());
  const [draft, setDraft] = useState<boolean | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (saved.data) setDraft(saved.data.consented);
  }, [saved.data]);

  if (draft === null || !saved.data) return null;
  const record = saved.data;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setBusy(true);
    try {
      const answer = await gateway.driver.saveMarketingConsent({
        consented: draft,
        language: i18n.language === 'es' ? 'es' : 'en',
      });
      queryClient.setQueryData(filterQueries.marketingConsent().queryKey, answer);
      show('success', t('flex.marketing.saved'));
    } catch (error) {
      setAlert(errorMessage(t, error, t('errors.fetchFailed')));
    } finally {
      setBusy(false);
    }
  };

  const status =
    record.recordedAt === null || record.method === null
      ? t('flex.marketing.never')
      : t(record.consented ? 'flex.marketing.yes' : 'flex.marketing.no', {
          how: t(`flex.marketing.how.${record.method}`),
          date: fmt.dateTime(record.recordedAt),
        });

  return (
    <form className="form settings-form" onSubmit={onSubmit} aria-labelledby="marketing-title">
      {/* Closed until opened: the Filters page above it is what a driver comes here for. */}
      <details className="marketing-settings">
        <summary>
          <h2 id="marketing-title">{t('flex.marketing.title')}</h2>
        </summary>
        <p>{t('flex.marketing.intro')}</p>
        <Checkbox
          id="marketing-consent"
          labelClassName="toggle-tile"
          label={<span className="tile-text">{t('flex.marketing.switch')}</span>}
          checked={draft}
          onChange={setDraft}
        />
        <p className="hint" data-testid="marketing-status">
          {status}
        </p>
        <FormAlert text={alert} />
        <button type="submit" className="primary" disabled={busy}>
          {t('flex.marketing.save')}
        </button>
      </details>
    </form>
  );
}
