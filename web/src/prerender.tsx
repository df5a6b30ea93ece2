// The landing page as HTML, rendered at build time into index.html (web/build/prerender-landing.ts)
// so / paints its content before any JavaScript has run; main.tsx then hydrates it. It is what an
// English visitor without a kept session sees first at /.
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { App } from './App.js';
import { LANGUAGE_STORAGE_KEY } from './i18n.js';
import { LAST_USER_SUFFIX, SESSION_PREFIX } from './lib/loadSdk.js';

function AtLanding({ children }: { children: ReactNode }) {
  return <StaticRouter location="/">{children}</StaticRouter>;
}

export function renderLanding(): string {
  return renderToString(<App Router={AtLanding} />);
}

/**
 * The classic script index.html runs before its first paint: it hides the prerendered landing page
 * from anyone main.tsx will not hydrate it for (prerendered.ts), so they never see it flash. It
 * mirrors prerenderedFits with the same keys; a module script would run only after the paint.
 */
export function bootScript(): string {
  const [language, prefix, suffix] = [LANGUAGE_STORAGE_KEY, SESSION_PREFIX, LAST_USER_SUFFIX].map(
    (value) => JSON.stringify(value),
  );
  return `(function () {
  var fits = false;
  try {
    var storage = window.localStorage;
    fits = location.pathname === '/' && storage.getItem(${language}) !== 'es';
    for (var i = 0; fits && i < storage.length; i++) {
      var key = storage.key(i) || '';
      if (key.indexOf(${prefix}) === 0 && key.slice(-${suffix}.length) === ${suffix}) fits = false;
    }
  } catch (error) {}
  if (!fits) document.documentElement.classList.add('no-prerender');
})();
`;
}
