// GET /l/:code, a marketing SMS's short link (docs/product.md, 'Tracked links'): the code's shape is
// checked before anything is looked up, a known one redirects (302) to the address the send held
// and counts the click unless a previewer, crawler or HEAD opened it; anything else is a plain 404
// that says nothing about what exists. Targets come only from stored sends: no open redirect.
// Anonymous, under the request limit every route without its own shares.
import { isLinkCode, LINK_PATH } from '@blockcatch/sdk';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };
import { notFound } from '../http/errors.js';
import type { Queryable } from '../storage/db.js';
import { openLink } from '../storage/send-links.js';
import { isAutomatedOpen } from './link-visitors.js';

export function registerLinkRoute(
  app: FastifyInstance,
  deps: { db: Queryable; now: () => number },
): void {
  // A wildcard, not `:code`: the router answers a parameter past its bound itself, echoing it; here
  // any length reaches the shape check.
  app.get<{ Params: { '*': string } }>(
    `${LINK_PATH}*`,
    { config: { auth: 'public' } },
    async (request, reply) => {
      const code = request.params['*'];
      const url = isLinkCode(code)
        ? await openLink(deps.db, code, {
            now: deps.now(),
            counted: !isAutomatedOpen(request.method, request.headers['user-agent']),
          })
        : null;
      reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-robots-tag', 'noindex');
      if (url === null) return unknownLink(request, reply);
      // Serialised again: an address with characters a header may not hold is sent encoded.
      return reply.redirect(new URL(url).href, 302);
    },
  );
}

/** A person's browser gets a short page in its language; anything else the usual error body. */
function unknownLink(request: FastifyRequest, reply: FastifyReply) {
  const accept = request.headers.accept ?? '';
  if (!accept.slice(0, 200).includes('text/html')) {
    throw notFound('No link at this address.');
  }
  const spanish = /^\s*es\b/i.test((request.headers['accept-language'] ?? '').slice(0, 20));
  const texts = spanish ? es.links : en.links;
  return reply
    .status(404)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="${spanish ? 'es' : 'en'}"><head><meta charset="utf-8">` +
        '<meta name="viewport" content="width=device-width,initial-scale=1">' +
        `<title>${texts.notFoundTitle}</title></head>` +
        '<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem">' +
        `<h1>${texts.notFoundTitle}</h1><p>${texts.notFound}</p></body></html>`,
    );
}
