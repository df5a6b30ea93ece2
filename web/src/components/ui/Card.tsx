// A card of the design system (styles in ui.css): a bordered surface that groups one subject.
import type { HTMLAttributes } from 'react';

export interface CardProps extends HTMLAttributes<HTMLElement> {
  /** The element: a section (the default) when it has a heading, a list item inside a list. */
  as?: 'section' | 'div' | 'li' | 'article';
}

export function Card({ as: Tag = 'section', className, ...rest }: CardProps) {
  return <Tag className={className ? `card ${className}` : 'card'} {...rest} />;
}
