// GET /api/flex/v1/admin/sendWhatsapp: the WhatsApp templates (needs billing details).
import { templatesResponseSchema, type WhatsappTemplate } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

export function templatesResource(http: Requester) {
  return {
    async templates(options?: RequestOptions): Promise<WhatsappTemplate[]> {
      return (await http.get('/api/flex/v1/admin/sendWhatsapp', templatesResponseSchema, options))
        .Items;
    },
  };
}
