// A day filter (YYYY-MM-DD), optionally with a Clear button as the notifications screen has.
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function DateField({
  label,
  value,
  onChange,
  clearable = false,
}: {
  label: string;
  value: string | undefined;
  onChange(value: string | undefined): void;
  clearable?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="inline-field">
        <input
          id={id}
          type="date"
          value={value ?? ''}
          onChange={(e) => onChange(e.target.value || undefined)}
        />
        {clearable && (
          <button
            type="button"
            onClick={() => onChange(undefined)}
            disabled={!value}
            aria-label={`${t('common.clear')}: ${label}`}
          >
            {t('common.clear')}
          </button>
        )}
      </div>
    </div>
  );
}
