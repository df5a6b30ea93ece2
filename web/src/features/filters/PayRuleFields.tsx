// The pay-rule fields (minimum per hour, minimum per block, time buffer), drawn the same way for
// the general rules and for each warehouse's own: one description per rule, one Input each.
import { useTranslation } from 'react-i18next';
import { Input } from '../../components/ui/Input.js';
import { PAY_RULES, type PayRule } from './filterDraft.js';

interface RuleField {
  label: string;
  step: string;
  inputMode: 'decimal' | 'numeric';
  prefix?: string;
  suffix?: string;
}

/** How each rule is typed; a new rule in PAY_RULES needs its entry here. */
const RULE_FIELDS: Record<PayRule, RuleField> = {
  minHourlyPay: {
    label: 'flex.settings.minAmountPerHour',
    step: '0.5',
    inputMode: 'decimal',
    prefix: 'flex.settings.dollarUnit',
    suffix: 'flex.settings.hourlyUnit',
  },
  minBlockPay: {
    label: 'flex.settings.minBlockPayment',
    step: '0.5',
    inputMode: 'decimal',
    prefix: 'flex.settings.dollarUnit',
  },
  timeBufferMinutes: {
    label: 'flex.settings.timeBuffer',
    step: '1',
    inputMode: 'numeric',
    suffix: 'flex.settings.minutesUnit',
  },
};

export function PayRuleFields({
  values,
  onChange,
  errorFor,
  placeholders,
  labelSuffix,
}: {
  values: Record<PayRule, string>;
  onChange(rule: PayRule, value: string): void;
  /** The message beside a field, if it is wrong. */
  errorFor(rule: PayRule): string | undefined;
  /** Shown in empty fields: the general value a warehouse's empty field keeps. */
  placeholders?: Record<PayRule, string>;
  /** Added to each label, so a warehouse's fields are named apart from the general ones. */
  labelSuffix?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="field-row">
      {PAY_RULES.map((rule) => {
        const field = RULE_FIELDS[rule];
        return (
          <Input
            key={rule}
            label={labelSuffix ? `${t(field.label)} ${labelSuffix}` : t(field.label)}
            type="number"
            min={0}
            step={field.step}
            inputMode={field.inputMode}
            {...(field.prefix ? { prefix: t(field.prefix) } : {})}
            {...(field.suffix ? { suffix: t(field.suffix) } : {})}
            {...(placeholders ? { placeholder: placeholders[rule] } : {})}
            error={errorFor(rule)}
            value={values[rule]}
            onChange={(value) => onChange(rule, value)}
          />
        );
      })}
    </div>
  );
}
