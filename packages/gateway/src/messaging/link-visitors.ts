// Who opens a tracked link without being a person: link-preview fetchers (a chat app drawing the
// link's card the moment the text arrives), crawlers and command-line clients. They are redirected
// like anyone but their opens are not counted as clicks (docs/product.md, 'Tracked links').

/** User-Agent fragments of previewers, crawlers and tools, matched without regard to case. */
export const AUTOMATED_VISITORS: readonly string[] = [
  'facebookexternalhit',
  'facebookcatalog',
  'meta-externalagent',
  'twitterbot',
  'slackbot',
  'slack-imgproxy',
  'whatsapp',
  'telegrambot',
  'discordbot',
  'linkedinbot',
  'skypeuripreview',
  'applebot',
  'googlebot',
  'google-pagerenderer',
  'adsbot-google',
  'bingbot',
  'bingpreview',
  'yandexbot',
  'duckduckbot',
  'baiduspider',
  'pinterestbot',
  'redditbot',
  'googleimageproxy',
  'embedly',
  'iframely',
  'kakaotalk-scrap',
  'microsoft preview',
  'headlesschrome',
  'curl/',
  'wget/',
  'python-requests',
  'python-urllib',
  'go-http-client',
  'okhttp',
  'axios/',
  'node-fetch',
  'undici',
  'java/',
  'libwww-perl',
  'httpclient',
  'bot',
  'crawler',
  'spider',
  'preview',
];

/** The longest User-Agent read; past it a header is judged by its start. */
const MAX_USER_AGENT = 512;

/**
 * Whether an open is not a person's: a HEAD (previewers check a link with it), no User-Agent at
 * all, or one naming a previewer, crawler or tool.
 */
export function isAutomatedOpen(method: string, userAgent: string | undefined): boolean {
  if (method !== 'GET') return true;
  if (userAgent === undefined || userAgent.trim() === '') return true;
  const agent = userAgent.slice(0, MAX_USER_AGENT).toLowerCase();
  return AUTOMATED_VISITORS.some((fragment) => agent.includes(fragment));
}
