// GET /api/flex/v1/admin/sendWhatsapp: the WhatsApp templates (needs billing details).
import { templatesResponseSchema, type WhatsappTemplate } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

export function templatesResource(http: Requester) {
  return {
    async templates(options?: RequestOptions): Promise<WhatsappTemplate[]> {
      const response = await http.request({
        method: 'GET',
        path: '/api/flex/v1/admin/sendWhatsapp',
        schema: templatesResponseSchema,
        ...(options ? { options } : {}),
      });
      return response.data.Items;
    },
  };
}
