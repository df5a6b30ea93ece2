// The delivery-platform link under /api/flex/v1/platform: sign in to the platform, confirm with the
// code it texts, read or drop the link, and the service areas (warehouses) it offers blocks in.
import {
  type PlatformChallenge,
  type PlatformSignInRequest,
  type PlatformState,
  type PlatformVerifyRequest,
  platformChallengeSchema,
  platformLinkResponseSchema,
  platformStateResponseSchema,
  type ServiceArea,
  serviceAreasResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

const BASE = '/api/flex/v1';

export function platformResource(http: Requester) {
  return {
    /** The platform texts a 6-digit code to the driver's phone; `verify` takes it. */
    async signIn(
      body: PlatformSignInRequest,
      options?: RequestOptions,
    ): Promise<PlatformChallenge> {
      const response = await http.request({
        method: 'POST',
        path: `${BASE}/platform/sign-in`,
        body,
        schema: platformChallengeSchema,
        options,
      });
      return response.data;
    },
    async verify(body: PlatformVerifyRequest, options?: RequestOptions): Promise<void> {
      await http.request({
        method: 'POST',
        path: `${BASE}/platform/verify`,
        body,
        schema: platformLinkResponseSchema,
        options,
      });
    },
    async state(options?: RequestOptions): Promise<PlatformState> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/platform`,
        schema: platformStateResponseSchema,
        options,
      });
      return response.data;
    },
    /** Forgets the credentials and session: the catcher stops for this driver. */
    async disconnect(options?: RequestOptions): Promise<void> {
      await http.request({
        method: 'DELETE',
        path: `${BASE}/platform`,
        schema: platformLinkResponseSchema,
        options,
      });
    },
    async serviceAreas(options?: RequestOptions): Promise<ServiceArea[]> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/service-areas`,
        schema: serviceAreasResponseSchema,
        options,
      });
      return response.data.Items;
    },
  };
}
