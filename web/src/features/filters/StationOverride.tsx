// One warehouse's own pay rules on the Filters page, closed until the driver opens it (or a field
// in it is wrong). Its summary says whether it overrides anything, so a closed list still reads.
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAY_RULES, type PayRule, type StationDraft } from './filterDraft.js';
import { PayRuleFields } from './PayRuleFields.js';

export function StationOverride({
  station,
  rule,
  general,
  onChange,
  errorFor,
  children,
}: {
  station: { id: string; name: string };
  rule: StationDraft;
  /** The general values, shown where this warehouse keeps them. */
  general: Record<PayRule, string>;
  onChange(field: PayRule, value: string): void;
  errorFor(field: PayRule): string | undefined;
  /** More about this warehouse, drawn under its fields when open. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const panelId = useId();
  const [opened, setOpened] = useState(false);
  const hasError = PAY_RULES.some((field) => errorFor(field) !== undefined);
  const open = opened || hasError;
  const overrides = PAY_RULES.filter((field) => rule[field].trim() !== '').length;
  return (
    <div className="station-rule">
      <button
        type="button"
        className="station-rule-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpened(!open)}
      >
        <span className="station-rule-name">{station.name}</span>
        <span className="muted">
          {overrides === 0
            ? t('flex.settings.usesGeneral')
            : t('flex.settings.ownRules', { count: overrides })}
        </span>
      </button>
      {open && (
        <div id={panelId} className="station-rule-panel">
          <PayRuleFields
            values={rule}
            placeholders={general}
            labelSuffix={`(${station.id})`}
            onChange={onChange}
            errorFor={errorFor}
          />
          {children}
        </div>
      )}
    </div>
  );
}
