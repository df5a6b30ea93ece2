// The alerts section of /flex/settings: one switch per alert and the channel they go by. Saved on
// its own, apart from the filters above it.
import { ALERT_CHANNELS, ALERT_KINDS, type AlertSettings as Settings } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../hooks/errorMessage.js';
import { driverQueries } from '../../hooks/queries.js';
import { gateway } from '../../sdk.js';
import { FormAlert } from '../FormAlert.js';
import { Checkbox } from '../ui/Checkbox.js';
import { useToast } from '../ui/Toast.js';

export function AlertSettings() {
  const { t } = useTranslation();
  const { show } = useToast();
  const queryClient = useQueryClient();
  const saved = useQuery(driverQueries.alerts());
  const [draft, setDraft] = useState<Settings | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (saved.data) setDraft(saved.data);
  }, [saved.data]);

  if (!draft) return null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setBusy(true);
    try {
      const answer = await gateway.driver.saveAlertSettings(draft);
      queryClient.setQueryData(driverQueries.alerts().queryKey, answer);
      show('success', t('flex.alerts.saved'));
    } catch (error) {
      setAlert(errorMessage(t, error, t('errors.fetchFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form settings-form" onSubmit={onSubmit} aria-labelledby="alerts-title">
      <h2 id="alerts-title">{t('flex.alerts.title')}</h2>
      <p>{t('flex.alerts.intro')}</p>
      <fieldset>
        <legend>{t('flex.alerts.title')}</legend>
        <div className="toggle-grid">
          {ALERT_KINDS.map((kind) => (
            <Checkbox
              key={kind}
              id={`alert-${kind}`}
              labelClassName="toggle-tile"
              label={
                <span className="tile-text">
                  <span>{t(`flex.alerts.kinds.${kind}`)}</span>
                </span>
              }
              checked={draft.enabled[kind]}
              onChange={(on) => setDraft({ ...draft, enabled: { ...draft.enabled, [kind]: on } })}
            />
          ))}
        </div>
      </fieldset>
      <fieldset className="radio-group">
        <legend>{t('flex.alerts.channel')}</legend>
        {ALERT_CHANNELS.map((channel) => (
          <label key={channel} htmlFor={`alert-channel-${channel}`} className="radio-option">
            <input
              id={`alert-channel-${channel}`}
              type="radio"
              name="alert-channel"
              checked={draft.channel === channel}
              onChange={() => setDraft({ ...draft, channel })}
            />
            <span>{t(`flex.alerts.channels.${channel}`)}</span>
          </label>
        ))}
      </fieldset>
      <FormAlert text={alert} />
      <button type="submit" className="primary" disabled={busy}>
        {t('flex.alerts.save')}
      </button>
    </form>
  );
}
