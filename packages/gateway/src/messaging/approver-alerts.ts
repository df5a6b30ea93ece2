// The approvers' text when a send is held for approval: every owner and every admin with the
// approval permission, except the admin who asked, in their language, queued as an alert (claimed
// before any marketing, never held by quiet hours). The asker's name goes in only as the first name
// the invitation texts allow (no link, domain, email or number), else "another admin".
import { invitationFirstName } from '@blockcatch/sdk';
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };
import type { Db } from '../storage/db.js';
import { findApprovers } from '../storage/users.js';
import type { Enqueue } from './enqueue.js';

interface HeldSend {
  jobId: string;
  requester: { id: string; name: string };
  recipients: number;
  /** The Approvals page's address. */
  link: string;
}

/** The approver's text in `language` (English unless Spanish). */
function approvalRequestText(send: HeldSend, language: string): string {
  const sms = language.startsWith('es') ? es.sms : en.sms;
  const name = invitationFirstName(send.requester.name);
  const template = name === null ? sms.approvalRequestedUnnamed : sms.approvalRequested;
  // Replaced by functions: a replacement string would read `$&` and its kin as patterns.
  return template
    .replace('{{name}}', () => name ?? '')
    .replace('{{count}}', () =>
      send.recipients.toLocaleString(language.startsWith('es') ? 'es' : 'en'),
    )
    .replace('{{link}}', () => send.link);
}

/** Queues the text to every approver but the asker, once per approver for this send. */
export async function alertApprovers(db: Db, enqueue: Enqueue, send: HeldSend): Promise<number> {
  const approvers = await findApprovers(db, send.requester.id);
  for (const approver of approvers) {
    await enqueue({
      createdBy: send.requester.id,
      key: `alert:approval:${send.jobId}:${approver.id}`,
      to: approver.phoneNumber,
      body: approvalRequestText(send, approver.language),
      quietHours: false,
    });
  }
  return approvers.length;
}
