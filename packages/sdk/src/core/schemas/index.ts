// The entity schemas every package shares: the gateway validates with them, clients parse with them.

export * from './alerts.js';
export * from './api-tokens.js';
export * from './billing.js';
export * from './bounds.js';
export * from './consent.js';
export * from './driver.js';
export * from './export.js';
export * from './filters.js';
export * from './insight.js';
export * from './invitations.js';
export * from './latency.js';
export * from './messages.js';
export * from './outbox.js';
export * from './outcomes.js';
export * from './referrals.js';
export * from './sends.js';
export * from './support.js';
export * from './users.js';
