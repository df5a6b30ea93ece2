// `send --test`: the message, rendered for the first recipient, to the signed-in admin's phone
// only. The gateway makes no send job of it, so it is in no count or report.
import type { Context } from '../../context.js';
import type { Translate } from '../../i18n.js';
import { printJson } from '../../output/json.js';
import { say } from '../../setup.js';
import type { SendPlan } from './plan.js';
import { previewRequest } from './preview.js';

export async function sendTestToSelf(ctx: Context, plan: SendPlan, t: Translate, json: boolean) {
  const first = plan.set.recipients[0]?.phone;
  const asked = previewRequest(plan, []);
  const result = await ctx.client.sends.test({
    ...(asked.channel === 'sms'
      ? { channel: 'sms', message: asked.message }
      : { channel: 'whatsapp', msgTemplate: asked.msgTemplate }),
    ...(first ? { renderFor: first } : {}),
  });
  if (json) {
    printJson(result);
    return;
  }
  say(t('cli.send.testSent', { to: result.to, renderedFor: result.renderedFor }));
  say(t('cli.send.previewLine', { to: result.renderedFor, text: result.text }));
}
