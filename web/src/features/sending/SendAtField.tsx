// When to send: a date and time on the browser's clock, or empty for now. A time in the past is
// explained next to the field until it is fixed.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox } from '../../components/ui/Checkbox.js';

export function SendAtField({
  value,
  onChange,
  invalid,
  localTime,
  onLocalTime,
}: {
  value: string;
  onChange(value: string): void;
  invalid: boolean;
  /** The time read in each recipient's zone instead of the browser's (shown when given). */
  localTime?: boolean;
  onLocalTime?(on: boolean): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field send-at-field">
      <label htmlFor={id}>{t('admin.sendSms.sendAt')}</label>
      <div className="inline-field">
        <input
          id={id}
          type="datetime-local"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? `${hintId} ${errorId}` : hintId}
        />
        <button
          type="button"
          onClick={() => onChange('')}
          disabled={!value}
          aria-label={`${t('common.clear')}: ${t('admin.sendSms.sendAt')}`}
        >
          {t('common.clear')}
        </button>
      </div>
      <p id={hintId} className="hint">
        {t('admin.sendSms.sendAtHint')}
      </p>
      {onLocalTime && (
        <Checkbox
          id={`${id}-local`}
          checked={localTime ?? false}
          onChange={onLocalTime}
          disabled={!value}
          label={t('admin.sendSms.localTime')}
        />
      )}
      {invalid && (
        <p id={errorId} className="field-error">
          {t('admin.sendSms.sendAtPast')}
        </p>
      )}
    </div>
  );
}
