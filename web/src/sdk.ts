// The web app's one SDK client and auth, configured from the page's origin and Vite's env.
import {
  createAuth,
  createGatewayClient,
  createLocalStorageSessionStore,
  type GatewayClient,
  SANDBOX_CLIENT_ID,
  SANDBOX_USER_POOL_ID,
} from '@blockcatch/sdk';

const env = import.meta.env;
/** The sandbox gateway serves the app, so the API and identity live on the same origin. */
const baseUrl = (env.VITE_GATEWAY_URL as string | undefined) ?? window.location.origin;

export const auth = createAuth({
  userPoolId: (env.VITE_USER_POOL_ID as string | undefined) ?? SANDBOX_USER_POOL_ID,
  clientId: (env.VITE_CLIENT_ID as string | undefined) ?? SANDBOX_CLIENT_ID,
  endpoint: `${baseUrl}/`,
  storage: createLocalStorageSessionStore(),
});

export const gateway: GatewayClient = createGatewayClient({
  baseUrl,
  auth: { getIdToken: () => auth.getIdToken() },
});
