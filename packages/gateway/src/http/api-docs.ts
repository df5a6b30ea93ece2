// The OpenAPI document at GET /api/docs, generated at start-up from the same zod schemas the
// routes validate and answer with, so the reference cannot drift from the code.

import { ERROR_CODES } from '@blockcatch/sdk';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

const API_DOCS_PATH = '/api/docs';

/** Before any route: the swagger plugin collects routes as they are registered. */
export async function registerApiDocs(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'BlockCatch gateway',
        version,
        description: `Errors answer { code, message, field? }; code is one of ${ERROR_CODES.join(', ')}. Each route's x-auth says who may call it.`,
      },
    },
    transform: (document) => {
      const transformed = jsonSchemaTransform(document);
      const auth = document.route.config?.auth;
      return { ...transformed, schema: { ...transformed.schema, 'x-auth': auth } };
    },
  });
  app.get(
    API_DOCS_PATH,
    { config: { auth: 'public' }, schema: { hide: true } },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
}
