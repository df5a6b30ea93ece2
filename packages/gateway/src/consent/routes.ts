// GET and PUT /api/flex/v1/marketing-consent: the signed-in driver's answer about marketing texts
// (the settings switch), recorded with when, how and the switch's words in the language shown.
import {
  MARKETING_CONSENT_VERSION,
  marketingConsentChangeSchema,
  marketingConsentResponseSchema,
} from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../storage/db.js';
import { findConsent, recordConsent } from '../storage/marketing-consent.js';
import { consentWords } from './texts.js';

const PATH = '/api/flex/v1/marketing-consent';

export function registerConsentRoutes(
  app: FastifyInstance,
  deps: { db: Db; now: () => number },
): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    PATH,
    { config: { auth: 'user' }, schema: { response: { 200: marketingConsentResponseSchema } } },
    async (request) => ({ Item: await findConsent(db, request.principal.user.phone_number) }),
  );

  api.put(
    PATH,
    {
      config: { auth: 'user' },
      schema: {
        body: marketingConsentChangeSchema,
        response: { 200: marketingConsentResponseSchema },
      },
    },
    async (request) => {
      const phoneNumber = request.principal.user.phone_number;
      await recordConsent(db, {
        phoneNumber,
        consented: request.body.consented,
        method: 'settings',
        textVersion: MARKETING_CONSENT_VERSION,
        words: consentWords('settings', request.body.language),
        now: deps.now(),
      });
      return { Item: await findConsent(db, phoneNumber) };
    },
  );
}
