// A Yes/No/All filter: 'yes' keeps true, 'no' keeps the rest, 'all' keeps everyone.
import type { TriState } from '@blockcatch/sdk';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function TriStateSelect({
  label,
  value,
  onChange,
}: {
  label: string;
  value: TriState;
  onChange(value: TriState): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as TriState)}>
        <option value="all">{t('common.all')}</option>
        <option value="yes">{t('common.yes')}</option>
        <option value="no">{t('common.no')}</option>
      </select>
    </div>
  );
}
