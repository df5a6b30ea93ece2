// A table of the design system (styles in ui.css): it uses the screen's width with sticky headers;
// on a phone its rows become cards whose cells are labelled with their column's header. The scroll
// area can be focused to scroll it by keyboard.
import { type ReactNode, useLayoutEffect, useRef } from 'react';

export function Table({ caption, children }: { caption: string; children: ReactNode }) {
  const ref = useRef<HTMLTableElement>(null);
  // Each body cell carries its header's text, which the card layout shows beside the value.
  useLayoutEffect(() => {
    const table = ref.current;
    if (!table) return;
    const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent ?? '');
    for (const row of table.querySelectorAll('tbody tr')) {
      [...row.children].forEach((cell, index) => {
        const header = headers[index];
        if (header) cell.setAttribute('data-label', header);
      });
    }
  });
  return (
    <section
      className="table-scroll"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container needs focus to scroll by keyboard
      tabIndex={0}
      aria-label={caption}
    >
      <table ref={ref} className="table-cards">
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </section>
  );
}
