// The text a WhatsApp template sends: its HEADER, then its BODY, as the recipient reads them.
import type { TemplateComponent } from '@blockcatch/sdk';

export function renderTemplate(components: readonly TemplateComponent[]): string {
  const texts = (type: TemplateComponent['type']) =>
    components.filter((c) => c.type === type).map((c) => c.text.trim());
  return [...texts('HEADER'), ...texts('BODY')].filter((t) => t.length > 0).join('\n\n');
}
