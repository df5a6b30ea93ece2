// WhatsApp's approval of a template's content through Twilio's Content API:
// `GET https://content.twilio.com/v1/Content/{ContentSid}/ApprovalRequests` answers
// `{ sid, account_sid, url, whatsapp: { name, category, content_type, status, rejection_reason,
// allow_category_change } }`; a content never submitted to WhatsApp has no `whatsapp` part.
import { TEMPLATE_APPROVAL_STATUSES, type TemplateApprovalStatus } from '@blockcatch/sdk';
import { request } from 'undici';
import { z } from 'zod';

export interface ContentApiSettings {
  accountSid: string;
  authToken: string;
  /** https://content.twilio.com, or a local stand-in in tests. */
  contentBaseUrl: string;
}

export interface ContentApproval {
  status: TemplateApprovalStatus;
  rejectionReason: string | null;
}

const TIMEOUT_MS = 15_000;
const MAX_ANSWER_LENGTH = 100_000;

const approvalAnswerSchema = z.looseObject({
  whatsapp: z
    .looseObject({
      status: z.string().max(40).nullish(),
      rejection_reason: z.string().max(1000).nullish(),
    })
    .nullish(),
});

/** WhatsApp's status as our enum: a status this code does not know reads as `unknown`. */
function toStatus(value: string | null | undefined): TemplateApprovalStatus {
  const status = value?.toLowerCase();
  return (TEMPLATE_APPROVAL_STATUSES as readonly string[]).includes(status ?? '')
    ? (status as TemplateApprovalStatus)
    : 'unknown';
}

/** WhatsApp's answer about `contentSid`; throws (naming the content) when Twilio gives none. */
export async function fetchContentApproval(
  settings: ContentApiSettings,
  contentSid: string,
): Promise<ContentApproval> {
  const url = new URL(
    `/v1/Content/${encodeURIComponent(contentSid)}/ApprovalRequests`,
    settings.contentBaseUrl,
  );
  const response = await request(url, {
    method: 'GET',
    headers: {
      authorization: `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`,
      accept: 'application/json',
    },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const text = await response.body.text();
  if (response.statusCode === 404) return { status: 'unsubmitted', rejectionReason: null };
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw new Error(
      `Twilio's Content API answered ${response.statusCode} for ${contentSid}${response.statusCode === 401 ? ': check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN' : ''}`,
    );
  }
  if (text.length > MAX_ANSWER_LENGTH)
    throw new Error(`Twilio's answer for ${contentSid} is too long`);
  const parsed = approvalAnswerSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`Twilio's answer for ${contentSid} is not an approval`);
  const whatsapp = parsed.data.whatsapp;
  if (!whatsapp) return { status: 'unsubmitted', rejectionReason: null };
  return { status: toStatus(whatsapp.status), rejectionReason: whatsapp.rejection_reason ?? null };
}
