// An input of the design system (styles in ui.css): a labelled input with an optional unit and its
// validation message, tied together for screen readers.
import { type InputHTMLAttributes, useId } from 'react';

export interface InputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  /** A unit shown before the value, such as "$". */
  prefix?: string;
  /** A unit shown after the value, such as "min". */
  suffix?: string;
}

export function Input({ label, value, onChange, error, prefix, suffix, ...input }: InputProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className={prefix || suffix ? 'input-unit' : undefined}>
        {prefix && (
          <span className="unit" aria-hidden="true">
            {prefix}
          </span>
        )}
        <input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        {suffix && (
          <span className="unit" aria-hidden="true">
            {suffix}
          </span>
        )}
      </div>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

type FieldProps = Omit<InputProps, 'type' | 'inputMode' | 'autoComplete'>;

/** A phone number: the phone's keypad, and the browser offers the number it knows. */
export function PhoneInput(props: FieldProps) {
  return <Input type="tel" inputMode="tel" autoComplete="tel" {...props} />;
}

/** A code sent by text: digits, and the phone offers the code from the message. */
export function CodeInput(props: FieldProps) {
  return <Input inputMode="numeric" autoComplete="one-time-code" {...props} />;
}
