// Every answer's security headers: helmet's, with a strict Content-Security-Policy. Set by the
// first hook that can refuse nothing, so that refusals (401, 404, 429, 503) carry them too. A route
// may set its own policy (the sandbox's payment pages do): its header replaces this one.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { GatewayConfig } from '../config.js';

export function installSecurityHeaders(
  app: FastifyInstance,
  config: Pick<GatewayConfig, 'corsOrigins' | 'publicUrl'>,
): void {
  const headers = helmetHeaders(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          scriptSrcAttr: ["'none'"],
          // React sets style attributes; no script can run from them.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...config.corsOrigins],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // HSTS only where the deployment is reached over HTTPS; on plain http it would mean nothing.
      strictTransportSecurity: config.publicUrl?.startsWith('https://')
        ? { maxAge: 31_536_000, includeSubDomains: true }
        : false,
    }),
  );
  // The headers are the same for every answer (no nonces), so helmet runs once and each answer gets
  // them as Fastify's own: Node then writes an answer's headers in one pass, rather than checking
  // and storing each one set on the raw response (which also moved Fastify's own onto that path).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The headers helmet's middleware sets on an answer, read by running it once on a recorder. */
function helmetHeaders(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  let failure: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}
