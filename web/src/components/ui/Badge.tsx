// A badge of the design system (styles in ui.css): a short status or count beside what it is about,
// coloured by its tone and always saying it in words too.
import type { HTMLAttributes } from 'react';

export type BadgeTone = 'neutral' | 'ok' | 'warn' | 'danger' | 'info';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

export function Badge({ tone = 'neutral', className, ...rest }: BadgeProps) {
  const look = ['badge', tone === 'neutral' ? null : `badge-${tone}`, className]
    .filter(Boolean)
    .join(' ');
  return <span className={look} {...rest} />;
}
