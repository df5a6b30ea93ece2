// The Alerts section of the Filters form: one switch per alert and the channel they go by. Saved
// with the rest of the form.
import { ALERT_CHANNELS, ALERT_KINDS, type AlertSettings } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/ui/Checkbox.js';

export function AlertFields({
  value,
  onChange,
}: {
  value: AlertSettings;
  onChange(next: AlertSettings): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <fieldset className="alert-kinds">
        <legend className="visually-hidden">{t('flex.alerts.title')}</legend>
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
              checked={value.enabled[kind]}
              onChange={(on) => onChange({ ...value, enabled: { ...value.enabled, [kind]: on } })}
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
              checked={value.channel === channel}
              onChange={() => onChange({ ...value, channel })}
            />
            <span>{t(`flex.alerts.channels.${channel}`)}</span>
          </label>
        ))}
      </fieldset>
    </>
  );
}
