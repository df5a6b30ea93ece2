// Serves the built web app beside the API, so one address gives both. Client-side routes
// (/admin/users, /flex/dashboard…) fall back to index.html; /api paths keep their JSON 404.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { markRoutesPublic } from './http/auth.js';
import { notFound } from './http/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A file of the web app (or its index.html fallback): touches no database, so it is neither
     * rate limited (which costs a query on PostgreSQL) nor refused when the database is busy.
     */
    webApp?: boolean;
  }
}

/** Whether `request`'s route serves the web app's files. */
export function isWebAppRequest(request: FastifyRequest): boolean {
  return request.routeOptions.config?.webApp === true;
}

/** The web workspace's build output, three levels up from src/ and from dist/ alike. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

export function hasWebApp(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}

export async function registerWebApp(app: FastifyInstance, dir: string): Promise<void> {
  // One public scope: the static files and the client-side-route fallback, which needs sendFile.
  await app.register(async (scope) => {
    markRoutesPublic(scope);
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, webApp: true };
    });
    // Brotli or gzip as the browser asks; only this scope, so the API's own encoding stays its own.
    // The build writes .br and .gz copies at the highest levels (web/build/precompress.ts), sent as
    // they are; a file without one is compressed on the fly.
    await scope.register(fastifyCompress, { encodings: ['br', 'gzip'] });
    // wildcard: false registers one route per built file, leaving unknown paths to the fallback.
    await scope.register(fastifyStatic, {
      root: dir,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      // Source maps stay on the build machine: they would hand out the source.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      cacheControl: false,
      setHeaders: (res, path) => res.setHeader('cache-control', cacheControlFor(path)),
    });

    scope.get('/*', async (request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      // An API path or a missing asset (anything with an extension) is a real 404, not the app.
      if (path === '/api' || path.startsWith('/api/') || /\.[a-z0-9]+$/i.test(path)) {
        throw notFound(`No route for ${request.method} ${path.slice(0, 100)}`);
      }
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    });
  });
}

/**
 * Vite names every file under assets/ by its content hash, so a browser may keep it for a year;
 * index.html (and anything unhashed) is checked on every load, so a new build shows at once.
 */
function cacheControlFor(path: string): string {
  return /[\\/]assets[\\/]/.test(path) ? IMMUTABLE : 'no-cache';
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
