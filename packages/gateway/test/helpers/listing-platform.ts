// A delivery platform that only lists offers, `listOffers` as given; any other call is refused,
// since a test or bench using it never signs in, refreshes or accepts.
import type { DeliveryPlatform, PlatformOffer, PlatformSession } from '../../src/platform/types.js';

export function listingPlatform(
  listOffers: (session: PlatformSession) => Promise<PlatformOffer[]>,
): DeliveryPlatform {
  const refuse = async (): Promise<never> => {
    throw new Error('this platform only lists offers');
  };
  return {
    name: 'listing',
    listServiceAreas: async () => [],
    signIn: refuse,
    verifyOtp: refuse,
    refreshSession: refuse,
    verificationPending: refuse,
    acceptOffer: refuse,
    arrive: refuse,
    listOffers,
    start() {},
    async stop() {},
  };
}
