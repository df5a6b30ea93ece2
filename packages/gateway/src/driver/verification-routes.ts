// "I've done it": the platform asked the driver to complete a check in its own app (a captcha, an
// identity check) and the catcher stopped for them. The driver says it is done; searching resumes
// only when the platform agrees. The check itself is never attempted here.
import { platformVerifiedResponseSchema } from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../http/errors.js';
import type { CredentialCipher } from '../platform/credential-cipher.js';
import { type DeliveryPlatform, PlatformError, type PlatformSession } from '../platform/types.js';
import type { Db } from '../storage/db.js';
import { clearVerification, findDriverLink, updateLinkSession } from '../storage/driver-links.js';

const VERIFICATION_PENDING_MESSAGE =
  "The delivery platform still asks for the check. Finish it in the platform's app, then press I've done it again.";

export function registerVerificationRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    platform: DeliveryPlatform;
    cipher: CredentialCipher;
    onDriverChanged(): void;
    now?: () => number;
  },
): void {
  const { db, platform, cipher, onDriverChanged } = deps;
  const now = deps.now ?? Date.now;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/flex/v1/platform/verified',
    {
      config: { auth: 'user' },
      schema: { body: z.strictObject({}), response: { 200: platformVerifiedResponseSchema } },
    },
    async (request) => {
      const { user } = request.principal;
      const link = await findDriverLink(db, user.id);
      if (!link?.session_enc || link.state !== 'connected') {
        throw new ApiError(409, 'not_connected', 'Connect your delivery account again.');
      }
      if (link.verification_required_ts === null) {
        throw new ApiError(
          409,
          'no_verification_asked',
          'The delivery platform has not asked you for a check: there is nothing to confirm.',
        );
      }
      const session = cipher.open<PlatformSession>(link.session_enc);
      const pending = await askPlatform(session, async (fresh) => {
        await updateLinkSession(db, user.id, cipher.seal(fresh), now());
      });
      if (pending) throw new ApiError(409, 'verification_pending', VERIFICATION_PENDING_MESSAGE);
      await clearVerification(db, user.id);
      onDriverChanged();
      return { resumed: true as const };
    },
  );

  /** Whether the check is still pending, refreshing a session that expired while it waited. */
  async function askPlatform(
    session: PlatformSession,
    keep: (fresh: PlatformSession) => Promise<void>,
  ): Promise<boolean> {
    try {
      return await platform.verificationPending(session);
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      if (error.kind === 'session-expired') {
        const fresh = await platform.refreshSession(session).catch((refusal: unknown) => {
          throw refusal instanceof PlatformError ? notConnected() : refusal;
        });
        await keep(fresh);
        return askPlatform(fresh, keep);
      }
      if (error.kind === 'unauthorized') throw notConnected();
      throw new ApiError(
        502,
        'platform_unavailable',
        'The delivery platform is not answering; try again shortly.',
      );
    }
  }
}

function notConnected(): ApiError {
  return new ApiError(409, 'not_connected', 'Connect your delivery account again.');
}
