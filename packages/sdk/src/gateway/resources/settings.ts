// GET and PUT /api/flex/v1/settings: the signed-in driver's block filters, and the preview of
// what filters being edited would have caught.
import type { FilterPreview } from '../../core/filter-preview.js';
import {
  type DriverFilters,
  driverSettingsResponseSchema,
  filterPreviewResponseSchema,
  type SavedDriverFilters,
  type SavedSettings,
  savedSettingsResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const PATH = '/api/flex/v1/settings';

export function driverSettingsResource(http: Requester) {
  return {
    /** Null until the driver first saves filters. */
    async settings(options?: RequestOptions): Promise<SavedDriverFilters | null> {
      return (await http.get(PATH, driverSettingsResponseSchema, options)).Item;
    },
    /** Replaces the filters; `setupComplete` once they hold a warehouse and a window. */
    async saveSettings(filters: DriverFilters, options?: RequestOptions): Promise<SavedSettings> {
      return http.put(PATH, savedSettingsResponseSchema, filters, options);
    },
    /**
     * What `filters` (not saved) and the saved filters would have caught from the offers the
     * driver was shown in the last 7 days: an estimate, and said to be one.
     */
    async previewSettings(
      filters: DriverFilters,
      options?: RequestOptions,
    ): Promise<FilterPreview> {
      return (await http.post(`${PATH}/preview`, filterPreviewResponseSchema, filters, options))
        .Item;
    },
  };
}
