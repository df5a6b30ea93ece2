// Tokens for machines: an owner or admin creates one for a cron job (`blockcatch auth token
// create`), sees it once, and the job sends it as its Authorization. The gateway keeps a SHA-256 of
// the secret, the expiry and the last use; a revoked or expired token is refused at once. A token
// acts as its creator as they are now, and cannot create more tokens.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { apiTokenSchema, apiTokensResponseSchema, createdApiTokenSchema } from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noteAudit } from '../http/audit.js';
import { ApiError, forbidden, notFound, quote, unauthenticated } from '../http/errors.js';
import {
  type ApiTokenRow,
  countLiveApiTokens,
  findApiToken,
  findTokenOwner,
  insertApiToken,
  listApiTokens,
  revokeApiToken,
  touchApiToken,
} from '../storage/api-tokens.js';
import type { Queryable } from '../storage/db.js';
import { isOwner, type Principal } from './authenticate.js';

/** `bct_<12-character id>_<43-character secret>`: 60 characters, base64url. */
const API_TOKEN_PREFIX = 'bct_';
const ID_LENGTH = 12;
/** Random bytes behind an id: base64url writes 3 bytes as 4 characters. */
const ID_BYTES = (ID_LENGTH * 3) / 4;
const TOKEN_LENGTH = API_TOKEN_PREFIX.length + ID_LENGTH + 1 + 43;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DAY_MS = 86_400_000;
/** Live tokens one person may hold: enough for every machine, few enough to review. */
const MAX_LIVE_TOKENS = 20;

/**
 * A token's id: ID_BYTES random bytes in base64url, drawn again while it starts with `-`, which a command
 * line would read as an option (`blockcatch auth token revoke -Xb3…` was a usage error).
 */
export function newTokenId(random: (size: number) => Buffer = randomBytes): string {
  for (;;) {
    const id = random(ID_BYTES).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest();

/** The caller a token names, or a 401 saying why not (unknown, revoked, expired). */
export async function authenticateApiToken(
  db: Queryable,
  token: string,
  now: number,
): Promise<Principal> {
  // Bounded before anything reads it.
  if (token.length !== TOKEN_LENGTH || !BASE64URL.test(token.slice(API_TOKEN_PREFIX.length))) {
    throw unauthenticated(
      'This is not a BlockCatch token; create one with blockcatch auth token create.',
    );
  }
  const id = token.slice(API_TOKEN_PREFIX.length, API_TOKEN_PREFIX.length + ID_LENGTH);
  const secret = token.slice(API_TOKEN_PREFIX.length + ID_LENGTH + 1);
  const row = await findApiToken(db, id);
  if (!row || !timingSafeEqual(hashSecret(secret), Buffer.from(row.secretHash, 'hex'))) {
    throw unauthenticated('This token is not known to this gateway.');
  }
  if (row.revokedAt !== null) throw unauthenticated(`Token ${quote(row.name)} was revoked.`);
  if (row.expiresAt <= now) {
    throw unauthenticated(
      `Token ${quote(row.name)} expired on ${new Date(row.expiresAt).toISOString()}; create a new one.`,
    );
  }
  const user = await findTokenOwner(db, row.userId);
  if (!user) throw unauthenticated('The account this token belongs to no longer exists.');
  await touchApiToken(db, row.id, now);
  return {
    claims: {
      sub: user.id,
      'cognito:username': user.phone_number,
      phone_number: user.phone_number,
      phone_number_verified: true,
      token_use: 'id',
      exp: Math.floor(row.expiresAt / 1000),
      iat: Math.floor(row.createdAt / 1000),
    },
    user,
    tokenId: row.id,
  };
}

const createSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    // A failed bound ends validation: the pattern never reads an oversized name.
    .max(60, { abort: true })
    .regex(/^[\w .@-]+$/, { message: 'use letters, digits, spaces and . _ @ - (up to 60)' }),
  expiresInDays: z.number().int().min(1).max(366),
});

const idParams = z.strictObject({ id: z.string().min(1).max(ID_LENGTH) });

/** A token as lists show it: never its secret or hash. */
function shown(row: ApiTokenRow) {
  return {
    id: row.id,
    name: row.name,
    userId: row.userId,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

export function registerApiTokenRoutes(
  app: FastifyInstance,
  deps: { db: Queryable; now: () => number },
): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const PATH = '/api/flex/v1/admin/api-tokens';

  api.post(
    PATH,
    {
      config: { auth: 'admin', audit: 'token.create' },
      schema: { body: createSchema, response: { 201: createdApiTokenSchema } },
    },
    async (request, reply) => {
      const { principal, body } = request;
      if (principal.tokenId !== undefined) {
        throw forbidden(
          'Creating a token needs a signed-in session (blockcatch login), not a token.',
        );
      }
      const now = deps.now();
      if ((await countLiveApiTokens(db, principal.user.id, now)) >= MAX_LIVE_TOKENS) {
        throw new ApiError(
          409,
          'conflict',
          `You hold ${MAX_LIVE_TOKENS} live tokens, the most allowed; revoke one first (blockcatch auth token list, revoke ID).`,
        );
      }
      const id = newTokenId();
      const secret = randomBytes(32).toString('base64url');
      const row = {
        id,
        userId: principal.user.id,
        name: body.name,
        secretHash: hashSecret(secret).toString('hex'),
        createdAt: now,
        expiresAt: now + body.expiresInDays * DAY_MS,
      };
      await insertApiToken(db, row);
      noteAudit(request, {
        target: id,
        detail: { name: body.name, expiresInDays: body.expiresInDays },
      });
      reply.status(201);
      // The only time the token is shown.
      return {
        ...shown({ ...row, lastUsedAt: null, revokedAt: null }),
        token: `${API_TOKEN_PREFIX}${id}_${secret}`,
      };
    },
  );

  // Your own tokens; an owner sees everyone's.
  api.get(
    PATH,
    { config: { auth: 'admin' }, schema: { response: { 200: apiTokensResponseSchema } } },
    async (request) => {
      const { principal } = request;
      const rows = await listApiTokens(db, isOwner(principal) ? null : principal.user.id);
      return { Items: rows.map(shown) };
    },
  );

  api.delete(
    `${PATH}/:id`,
    {
      config: { auth: 'admin', audit: 'token.revoke' },
      schema: { params: idParams, response: { 200: apiTokenSchema } },
    },
    async (request) => {
      const { principal } = request;
      const row = await findApiToken(db, request.params.id);
      // Someone else's token is as unknown as a missing one, unless you are an owner.
      if (!row || (row.userId !== principal.user.id && !isOwner(principal))) {
        throw notFound(`No token ${quote(request.params.id)}.`);
      }
      await revokeApiToken(db, row.id, deps.now());
      noteAudit(request, { target: row.id, detail: { name: row.name, owner: row.userId } });
      return shown((await findApiToken(db, row.id))!);
    },
  );
}
