// GET and PUT /api/flex/v1/alerts: which alerts the signed-in driver gets, and by which channel.
import { type AlertSettings, alertSettingsResponseSchema } from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const PATH = '/api/flex/v1/alerts';

export function driverAlertsResource(http: Requester) {
  return {
    /** Every alert is on, by SMS, until the driver changes it. */
    async alertSettings(options?: RequestOptions): Promise<AlertSettings> {
      return (await http.get(PATH, alertSettingsResponseSchema, options)).Item;
    },
    async saveAlertSettings(
      settings: AlertSettings,
      options?: RequestOptions,
    ): Promise<AlertSettings> {
      return (await http.put(PATH, alertSettingsResponseSchema, settings, options)).Item;
    },
  };
}
