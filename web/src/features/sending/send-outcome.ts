// What the screen says once the gateway accepted a send: queued (or scheduled, with when), who was
// skipped and why, and how many wait for the end of quiet hours. Nothing is delivered yet; the
// recent sends list shows delivery as it happens.
import type { SendResult } from '@blockcatch/sdk';

type Translate = (key: string, values?: Record<string, unknown>) => string;

export function sendOutcomeText(
  t: Translate,
  formatDateTime: (ts: number) => string,
  result: SendResult,
  requested: number,
): string {
  const queued = result.queued ?? requested;
  const parts = [
    result.pendingApproval
      ? t('admin.sendSms.pendingApproval', { count: queued })
      : result.sendAt === undefined
        ? t('admin.sendSms.queued', { count: queued })
        : t('admin.sendSms.scheduled', { count: queued, when: formatDateTime(result.sendAt) }),
  ];
  const skipped = result.skipped ?? [];
  if (skipped.length > 0) {
    const reasons = reasonsText(
      t,
      skipped.map((s) => s.reason),
    );
    parts.push(t('admin.sendSms.skipped', { count: skipped.length, reasons }));
  }
  if (result.waitingForQuietHours) {
    parts.push(t('admin.sendSms.waitingForQuietHours', { count: result.waitingForQuietHours }));
  }
  return parts.join(' ');
}

/** "No consent to marketing (12), Weekly limit reached (3)": each reason with its count. */
export function reasonsText(t: Translate, reasons: Iterable<string>): string {
  const byReason = new Map<string, number>();
  for (const reason of reasons) byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  return [...byReason]
    .map(([reason, n]) => `${t(`admin.review.reason.${reason}`)} (${n})`)
    .join(', ');
}
