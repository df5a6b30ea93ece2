// The read API: the signed-in user, the admin tables, referrals and
// invitations. Writes (sendsms, sendWhatsapp) belong to messaging; sign-in belongs to identity.
import {
  encryptedAnswerSchema,
  encryptResponse,
  flexUsersResponseSchema,
  type Invitation,
  invitationsResponseSchema,
  type Product,
  parseResponseKey,
  type Referral,
  referralsResponseSchema,
  signedInUserSchema,
  sparkUsersResponseSchema,
} from '@blockcatch/sdk';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayConfig } from '../config.js';
import type { Db } from '../storage/db.js';
import { listInvitations } from '../storage/invitations.js';
import { listReferralCodes, toSignedInUser, usersTableItemsChunks } from '../storage/users.js';
import { registerAdminRoleRoutes } from './admin-role.js';
import { type CachedBody, cacheTableBody } from './table-cache.js';
import { registerUsersExport } from './users-export.js';

export interface ApiDeps {
  db: Db;
  config: GatewayConfig;
}

export function registerApi(app: FastifyInstance, { db, config }: ApiDeps): void {
  const tables = createTables(db, config);
  registerUsersExport(app, db);
  registerAdminRoleRoutes(app, db);

  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/flex/v1/user',
    {
      config: { auth: 'user' },
      schema: { response: { 200: z.object({ Item: signedInUserSchema }) } },
    },
    async (request) => ({ Item: toSignedInUser(request.principal.user) }),
  );

  // The tables answer JSON kept ready as text (see table-cache.ts): the schemas declare it.
  app.get(
    '/api/flex/v1/all-users-table',
    {
      config: { auth: 'admin' },
      schema: { response: { 200: usersTable(flexUsersResponseSchema) } },
    },
    async (request, reply) => {
      return sendCached(request, reply, await tables.flexUsers.get());
    },
  );

  app.get(
    '/api/spark/v1/admin/all-users-table',
    {
      config: { auth: 'admin' },
      schema: { response: { 200: usersTable(sparkUsersResponseSchema) } },
    },
    async (request, reply) => {
      return sendCached(request, reply, await tables.sparkUsers.get());
    },
  );

  app.get(
    '/api/flex/v1/admin/referrals',
    { config: { auth: 'billing' }, schema: { response: { 200: referralsResponseSchema } } },
    async (request, reply) => {
      return sendCached(request, reply, await tables.referrals.get());
    },
  );

  app.get(
    '/api/flex/v1/admin/invitations',
    { config: { auth: 'admin' }, schema: { response: { 200: invitationsResponseSchema } } },
    async (request, reply) => {
      return sendCached(request, reply, await tables.invitations.get());
    },
  );
}

/** A user table answers encrypted once a response key is set. */
function usersTable<T extends z.ZodType>(plain: T) {
  return z.union([plain, encryptedAnswerSchema]);
}

function createTables(db: Db, config: GatewayConfig) {
  // Parsed once at start: a bad key fails the start, not the first request.
  const key = config.responseKey ? parseResponseKey(config.responseKey) : null;
  // Only the user tables answer encrypted (with a response key set); the others stay plain.
  const userTable = async (product: Product): Promise<string | Buffer[]> => {
    if (!key) return usersTableItemsChunks(db, product);
    const json = Buffer.concat(await usersTableItemsChunks(db, product)).toString('utf8');
    return JSON.stringify({ encrypted: await encryptResponse(json, key) });
  };
  return {
    flexUsers: cacheTableBody(db, 'users', () => userTable('flex')),
    sparkUsers: cacheTableBody(db, 'users', () => userTable('spark')),
    referrals: cacheTableBody(db, 'users', async () => {
      const items: Referral[] = (await listReferralCodes(db)).map((referralCode) => ({
        referralCode,
      }));
      return JSON.stringify({ Items: items });
    }),
    invitations: cacheTableBody(db, 'invitations', async () => {
      const items: Invitation[] = await listInvitations(db);
      return JSON.stringify({ Items: items });
    }),
  };
}

async function sendCached(request: FastifyRequest, reply: FastifyReply, body: CachedBody) {
  // The answer depends on who asks (admins only), so shared caches must not keep it.
  reply
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', 'private, no-cache')
    .header('etag', body.etag)
    .header('vary', 'origin, authorization, accept-encoding');
  if (request.headers['if-none-match'] === body.etag) return reply.status(304).send();
  const gzip = acceptsGzip(request.headers['accept-encoding']);
  if (gzip) reply.header('content-encoding', 'gzip');
  const bytes = gzip ? await body.gzipped() : body;
  return reply.header('content-length', bytes.length).send(bytes.stream());
}

/** Whether an Accept-Encoding header takes gzip (and does not refuse it with `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
