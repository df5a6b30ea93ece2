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
  platformVerifiedResponseSchema,
  type ServiceArea,
  serviceAreasResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const BASE = '/api/flex/v1';

export function platformResource(http: Requester) {
  return {
    /** The platform texts a 6-digit code to the driver's phone; `verify` takes it. */
    async signIn(
      body: PlatformSignInRequest,
      options?: RequestOptions,
    ): Promise<PlatformChallenge> {
      return http.post(`${BASE}/platform/sign-in`, platformChallengeSchema, body, options);
    },
    async verify(body: PlatformVerifyRequest, options?: RequestOptions): Promise<void> {
      await http.post(`${BASE}/platform/verify`, platformLinkResponseSchema, body, options);
    },
    /**
     * "I've done it": the check the platform asked for in its app is complete. Searching resumes
     * when the platform agrees; a HttpError with code `verification_pending` when it does not.
     */
    async confirmVerification(options?: RequestOptions): Promise<void> {
      await http.post(`${BASE}/platform/verified`, platformVerifiedResponseSchema, {}, options);
    },
    async state(options?: RequestOptions): Promise<PlatformState> {
      return http.get(`${BASE}/platform`, platformStateResponseSchema, options);
    },
    /** Forgets the credentials and session: the catcher stops for this driver. */
    async disconnect(options?: RequestOptions): Promise<void> {
      await http.delete(`${BASE}/platform`, platformLinkResponseSchema, options);
    },
    async serviceAreas(options?: RequestOptions): Promise<ServiceArea[]> {
      return (await http.get(`${BASE}/service-areas`, serviceAreasResponseSchema, options)).Items;
    },
  };
}
