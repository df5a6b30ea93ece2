// GET and PUT /api/flex/v1/alerts: which alerts the signed-in driver gets, and by which channel.
import { alertSettingsResponseSchema, alertSettingsSchema } from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../storage/db.js';
import { findAlertSettings, saveAlertSettings } from '../storage/driver-alert-settings.js';

const PATH = '/api/flex/v1/alerts';

export function registerAlertRoutes(app: FastifyInstance, deps: { db: Db }): void {
  const { db } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    PATH,
    { config: { auth: 'user' }, schema: { response: { 200: alertSettingsResponseSchema } } },
    async (request) => ({ Item: await findAlertSettings(db, request.principal.user.id) }),
  );

  api.put(
    PATH,
    {
      config: { auth: 'user' },
      schema: { body: alertSettingsSchema, response: { 200: alertSettingsResponseSchema } },
    },
    async (request) => {
      await saveAlertSettings(db, request.principal.user.id, request.body);
      return { Item: request.body };
    },
  );
}
