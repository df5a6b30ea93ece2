// Owners make a Flex user an admin or take admin away, audited as a role change. A removed admin's
// sessions lose the admin area at their next request: the change moves the users table's version,
// so the principal cache verifies their token again (this process at once, others within
// `principalVersionCheckMs`; see http/principal-cache.ts).
import { adminRoleChangeSchema, adminRoleSchema, normalizePhone } from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noteAudit } from '../http/audit.js';
import { conflict, notFound } from '../http/errors.js';
import { phoneParamSchema } from '../http/phone-param.js';
import type { Queryable } from '../storage/db.js';
import { findUserByPhone, setAdmin } from '../storage/users.js';

export function registerAdminRoleRoutes(app: FastifyInstance, db: Queryable): void {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/api/flex/v1/admin/users/:phone/role',
    {
      config: { auth: 'owner', audit: 'role.change' },
      schema: {
        params: phoneParamSchema,
        body: adminRoleChangeSchema,
        response: { 200: adminRoleSchema },
      },
    },
    async (request) => {
      const phone = normalizePhone(request.params.phone)!;
      const { admin } = request.body;
      const changed = await setAdmin(db, phone, admin);
      if (!changed) {
        const user = await findUserByPhone(db, 'flex', phone);
        if (!user) throw notFound(`No Flex user has the phone number ${phone}.`);
        throw conflict(
          user.id === request.principal.user.id
            ? 'You are the owner, and the owner stays an admin.'
            : `${phone} is an owner, and owners stay admins.`,
          'phone',
        );
      }
      noteAudit(request, {
        target: phone,
        detail: { role: 'admin', from: changed.wasAdmin, to: admin },
      });
      return { phoneNumber: phone, name: changed.name, admin };
    },
  );
}
