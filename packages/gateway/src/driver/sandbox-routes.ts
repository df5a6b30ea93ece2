// The sandbox platform's switches for demos and tests (docs/operations.md, "Drivers and the
// catcher"): an admin makes the platform ask a driver for a new one-time code or for a check in
// the platform's app, and completes that check as the driver would in the app.
import { MAX_PHONE_LENGTH, normalizePhone } from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../http/errors.js';
import type { SandboxPlatform } from '../platform/sandbox.js';

const askForCodeSchema = z.object({
  phoneNumber: z
    .string()
    .max(MAX_PHONE_LENGTH, { abort: true })
    .refine((value) => normalizePhone(value) !== null, {
      message: 'expected the driver’s US phone number such as +15125550100',
    }),
});

export function registerSandboxPlatformRoutes(app: FastifyInstance, platform: SandboxPlatform) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/sandbox/platform/ask-for-code',
    {
      config: { auth: 'admin' },
      schema: { body: askForCodeSchema, response: { 200: z.object({ asked: z.literal(true) }) } },
    },
    async (request) => {
      const normalized = normalizePhone(request.body.phoneNumber)!;
      if (!(await platform.askForNewCode(normalized))) {
        throw notFound(`No sandbox delivery account belongs to ${normalized}.`);
      }
      return { asked: true as const };
    },
  );

  const switches = [
    ['ask-for-verification', (phone: string) => platform.requireVerification(phone)],
    ['complete-verification', (phone: string) => platform.completeVerification(phone)],
  ] as const;
  for (const [name, flip] of switches) {
    app.withTypeProvider<ZodTypeProvider>().post(
      `/api/sandbox/platform/${name}`,
      {
        config: { auth: 'admin' },
        schema: { body: askForCodeSchema, response: { 200: z.object({ done: z.literal(true) }) } },
      },
      async (request) => {
        const normalized = normalizePhone(request.body.phoneNumber)!;
        if (!(await flip(normalized))) {
          throw notFound(`No sandbox delivery account belongs to ${normalized}.`);
        }
        return { done: true as const };
      },
    );
  }
}
