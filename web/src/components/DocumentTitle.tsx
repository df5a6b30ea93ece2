// The tab's title names the page, from its main heading in the language shown ("Filters ·
// BlockCatch"): with several tabs open, in the history list and in a screen reader's announcement
// of the page, every page had read "BlockCatch". The heading is the one source, so a title cannot
// drift from what the page says.
import { useEffect } from 'react';

export const PRODUCT_NAME = 'BlockCatch';

/**
 * The title of the page at `pathname` whose main heading reads `heading`: the product alone for
 * the landing page and for a page without a heading.
 */
export function titleFor(pathname: string, heading: string | null | undefined): string {
  const text = heading?.replace(/\s+/g, ' ').trim();
  if (pathname === '/' || !text || text === PRODUCT_NAME) return PRODUCT_NAME;
  return `${text} · ${PRODUCT_NAME}`;
}

/** Keeps document.title to titleFor() as pages, their headings and the language change. */
export function DocumentTitle() {
  useEffect(() => {
    const root = document.getElementById('root');
    if (!root) return;
    const update = () => {
      const title = titleFor(window.location.pathname, root.querySelector('h1')?.textContent);
      if (document.title !== title) document.title = title;
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(root, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  return null;
}
