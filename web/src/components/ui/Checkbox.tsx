// A checkbox of the design system (styles in ui.css): the native box, styled, with an optional label
// around it so a click on the text ticks it too. It can be disabled, marked invalid (pointing to the
// message that says why) or half-ticked when it stands for a group of which only some are ticked.
import { type InputHTMLAttributes, type ReactNode, useEffect, useRef } from 'react';

export interface CheckboxProps
  extends Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'type' | 'checked' | 'onChange' | 'children'
  > {
  checked: boolean;
  onChange(checked: boolean): void;
  /** What the box means; without it the box needs an aria-label or a label of its own elsewhere. */
  label?: ReactNode;
  labelClassName?: string | undefined;
  /** Some but not all of a group are ticked (a select-all box). */
  indeterminate?: boolean;
  /** The id of the message saying what is wrong: marks the box invalid and points to it. */
  errorId?: string | undefined;
}

export function Checkbox({
  checked,
  onChange,
  label,
  labelClassName,
  indeterminate = false,
  errorId,
  ...input
}: CheckboxProps) {
  const ref = useRef<HTMLInputElement>(null);
  // There is no attribute for the half-ticked state: only the DOM property sets it.
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate;
  }, [indeterminate]);
  const box = (
    <input
      ref={ref}
      type="checkbox"
      checked={checked}
      onChange={(e) => onChange(e.target.checked)}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
      {...input}
    />
  );
  if (label === undefined) return box;
  return (
    <label className={labelClassName} htmlFor={input.id}>
      {box}
      {label}
    </label>
  );
}
