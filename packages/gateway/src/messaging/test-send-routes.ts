// "Send a test to me": the exact message a send would send, rendered for a recipient the admin
// picks (a WhatsApp template's variables are that person's), delivered at once to the admin's own
// phone. It makes no send job, so it is in no count, report or result; the audit trail keeps it as
// a test send.
import {
  normalizePhone,
  segmentSms,
  type TestSendResult,
  testSendPayloadSchema,
  testSendResultSchema,
} from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { GatewayConfig } from '../config.js';
import { noteAudit } from '../http/audit.js';
import { invalid, quote } from '../http/errors.js';
import type { Db } from '../storage/db.js';
import { composeSms, composeWhatsapp } from './compose.js';
import type { OutgoingMessage } from './providers/types.js';
import { authorizeSendKind } from './send-request.js';

export function registerTestSendRoute(
  app: FastifyInstance,
  deps: { db: Db; config: GatewayConfig; deliver: (message: OutgoingMessage) => Promise<void> },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post(
    '/api/flex/v1/admin/send-test',
    {
      config: { auth: 'admin', audit: 'send.test' },
      schema: { body: testSendPayloadSchema, response: { 200: testSendResultSchema } },
    },
    async (request): Promise<TestSendResult> => {
      const { principal, body } = request;
      authorizeSendKind(
        principal,
        body.channel === 'sms'
          ? { channel: 'sms', message: body.message }
          : { channel: 'whatsapp' },
      );
      const me = principal.user.phone_number;
      const renderedFor = body.renderFor === undefined ? me : normalizePhone(body.renderFor);
      if (renderedFor === null) {
        throw invalid(
          'renderFor',
          `${quote(body.renderFor ?? '')} is not a valid US phone number; use 10 digits, optionally with a leading 1`,
        );
      }
      const numbers = { valid: [renderedFor], invalid: [] };
      const composed =
        body.channel === 'sms'
          ? composeSms(numbers, body.message)
          : await composeWhatsapp(deps.db, numbers, body.msgTemplate, deps.config.productTimeZone);
      const text = composed.recipients.body?.[0] ?? composed.body;
      const content = composed.recipients.content?.[0] ?? null;
      await deps.deliver({
        channel: body.channel,
        to: me,
        body: text,
        ...(composed.template ? { template: composed.template } : {}),
        ...(content?.contentSid ? { contentSid: content.contentSid } : {}),
        ...(content?.variables ? { variables: content.variables } : {}),
      });
      noteAudit(request, { target: me, detail: { channel: body.channel, renderedFor } });
      return {
        to: me,
        renderedFor,
        text,
        segments: body.channel === 'sms' ? segmentSms(text).segments : 1,
        test: true,
      };
    },
  );
}
