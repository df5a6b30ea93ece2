// The local sandbox gateway's user pool and app client: the gateway's defaults, and what the CLI
// and the web app use when no other pool is configured.
export const SANDBOX_USER_POOL_ID = 'us-east-1_Sandbox01';
export const SANDBOX_CLIENT_ID = 'blockcatch-sandbox-client';
