// Whether the landing page index.html carries (rendered at build time, in English, for a visitor
// without a session at /) is what this browser should show. public/boot.js makes the same choice
// before the first paint, so nobody else sees it flash.

import { storedLanguage } from './i18n.js';
import { hasStoredSession } from './lib/loadSdk.js';

export function prerenderedFits(): boolean {
  return window.location.pathname === '/' && storedLanguage() === 'en' && !hasStoredSession();
}
