// Buttons of the design system (styles in ui.css): a variant, an optional large size, and a busy
// state that shows a spinner and refuses a second press while the first is under way.
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router';

export type ButtonVariant = 'default' | 'primary' | 'danger' | 'ghost';

interface Look {
  variant?: ButtonVariant | undefined;
  large?: boolean | undefined;
}

function classes(base: string, { variant = 'default', large = false }: Look, extra?: string) {
  return [base, variant === 'default' ? null : variant, large ? 'large' : null, extra]
    .filter(Boolean)
    .join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, Look {
  /** Under way: spinner, aria-busy, and no second press. */
  busy?: boolean | undefined;
}

export function Button({
  variant,
  large,
  busy = false,
  className,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={classes('', { variant, large }, className) || undefined}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    />
  );
}

type ButtonLinkProps = Look & {
  children?: ReactNode;
  className?: string;
} & (
    | { to: string; href?: never }
    | ({ href: string; to?: never } & AnchorHTMLAttributes<HTMLAnchorElement>)
  );

/**
 * A link that looks like a button: `to` for a route of the app, `href` for anything else (an
 * anchor on the same page, another site).
 */
export function ButtonLink({
  variant,
  large,
  className,
  to,
  children,
  ...anchor
}: ButtonLinkProps) {
  const look = classes('button', { variant, large }, className);
  return to === undefined ? (
    <a className={look} {...anchor}>
      {children}
    </a>
  ) : (
    <Link className={look} to={to}>
      {children}
    </Link>
  );
}
