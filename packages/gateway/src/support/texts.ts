// The text that carries staff's answer to a driver, in the driver's language (locales/*.json,
// contact.texts), with the link to the Contact page where every answer stays.
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };

export function supportReplyText(
  reply: string,
  options: { language: string; baseUrl: string },
): string {
  const template = (options.language.startsWith('es') ? es : en).contact.texts.reply;
  const values: Record<string, string> = { reply, link: `${options.baseUrl}/contact` };
  // One pass over the template: a reply holding "{{link}}" stays as written.
  return template.replace(/\{\{(reply|link)\}\}/g, (_, name: string) => values[name] ?? '');
}
