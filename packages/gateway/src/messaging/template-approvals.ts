// Syncing WhatsApp's approval of each template from Twilio's Content API. With the outbox (the
// sandbox) there is no Content API: the seeded statuses stand.
import type { GatewayConfig } from '../config.js';
import type { Db } from '../storage/db.js';
import { listTemplatesWithContent, saveTemplateApproval } from '../storage/templates.js';
import { fetchContentApproval } from './providers/twilio-content.js';

/** Asks Twilio about every template with a content id; answers the ones it could not read. */
export async function syncTemplateApprovals(
  db: Db,
  config: GatewayConfig,
  now: () => number,
): Promise<{ id: string; error: string }[]> {
  const { accountSid, authToken } = config.twilio;
  if (config.messageProvider !== 'twilio' || !accountSid || !authToken) return [];
  const settings = {
    accountSid,
    authToken,
    contentBaseUrl: config.twilio.contentBaseUrl ?? 'https://content.twilio.com',
  };
  const failed: { id: string; error: string }[] = [];
  // One at a time: a handful of templates, and Twilio's Content API limits bursts.
  for (const template of await listTemplatesWithContent(db)) {
    try {
      const approval = await fetchContentApproval(settings, template.contentSid);
      await saveTemplateApproval(db, template.id, approval, now());
    } catch (error) {
      failed.push({ id: template.id, error: (error as Error).message });
    }
  }
  return failed;
}
