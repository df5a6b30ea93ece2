// Flex or Spark: which product's users a screen lists.
import type { Product } from '@blockcatch/sdk';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function ProductSwitch({
  value,
  onChange,
  legend,
}: {
  value: Product;
  onChange(product: Product): void;
  legend: string;
}) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className="radio-row">
      <legend>{legend}</legend>
      {(['flex', 'spark'] as const).map((p) => (
        <label key={p} className="inline">
          <input type="radio" name={name} checked={value === p} onChange={() => onChange(p)} />
          {t(`admin.sendSms.${p}`)}
        </label>
      ))}
    </fieldset>
  );
}
