// A wide table that scrolls sideways on a phone; the scroll area can be focused to scroll it by keyboard.
import type { ReactNode } from 'react';

export function ScrollTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <section
      className="table-scroll"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container needs focus to scroll by keyboard
      tabIndex={0}
      aria-label={caption}
    >
      <table>
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </section>
  );
}
