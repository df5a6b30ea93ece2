// Caps and choices on the Filters page: the most hours of blocks a day and a week, and an amount
// above which any block is taken whatever its hourly rate. Empty fields are off; a value typed
// wrong says so at once, beside its field.
import { useTranslation } from 'react-i18next';
import { Input } from '../../components/ui/Input.js';
import { type CapsDraft, type CapsField, capsDraftErrors, EMPTY_CAPS } from './capsDraft.js';

export function CapsAndChoices({
  value = EMPTY_CAPS,
  onChange,
}: {
  value?: CapsDraft | undefined;
  onChange(value: CapsDraft): void;
}) {
  const { t } = useTranslation();
  const errors = capsDraftErrors(value);
  const set = (field: CapsField) => (text: string) => onChange({ ...value, [field]: text });
  const errorFor = (field: CapsField) =>
    errors[field] ? t(`flex.settings.caps.invalid.${field}`) : undefined;
  return (
    // Closed until asked for (or until a value in it is wrong): most drivers leave every cap off.
    <details className="caps-and-choices" open={Object.keys(errors).length > 0 || undefined}>
      <summary>{t('flex.settings.caps.title')}</summary>
      <p className="muted">{t('flex.settings.caps.hint')}</p>
      <div className="field-row">
        <Input
          label={t('flex.settings.caps.maxHoursPerDay')}
          type="number"
          min={0}
          max={24}
          step="0.5"
          inputMode="decimal"
          suffix={t('flex.settings.hoursUnit')}
          placeholder={t('flex.settings.caps.noCap')}
          error={errorFor('maxHoursPerDay')}
          value={value.maxHoursPerDay}
          onChange={set('maxHoursPerDay')}
        />
        <Input
          label={t('flex.settings.caps.maxHoursPerWeek')}
          type="number"
          min={0}
          max={168}
          step="0.5"
          inputMode="decimal"
          suffix={t('flex.settings.hoursUnit')}
          placeholder={t('flex.settings.caps.noCap')}
          error={errorFor('maxHoursPerWeek')}
          value={value.maxHoursPerWeek}
          onChange={set('maxHoursPerWeek')}
        />
        <Input
          label={t('flex.settings.caps.anyBlockPay')}
          type="number"
          min={0}
          step="1"
          inputMode="decimal"
          prefix={t('flex.settings.dollarUnit')}
          placeholder={t('flex.settings.caps.off')}
          error={errorFor('anyBlockPay')}
          value={value.anyBlockPay}
          onChange={set('anyBlockPay')}
        />
      </div>
      <p className="muted">{t('flex.settings.caps.bestFirst')}</p>
    </details>
  );
}
