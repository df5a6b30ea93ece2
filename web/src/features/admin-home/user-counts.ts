// The admin dashboard's numbers, counted from the user tables.
import type { UserRow } from '@blockcatch/sdk';

export interface UserCounts {
  registered: number;
  /** System on and in good standing: being searched for now, or about to be. */
  active: number;
  /** Delivery-platform account not connected. */
  disconnected: number;
  goodStanding: number;
}

export function countUsers(users: readonly UserRow[]): UserCounts {
  let active = 0;
  let disconnected = 0;
  let goodStanding = 0;
  for (const user of users) {
    if (user.status === 'start' && user.goodStanding) active++;
    if (!user.proxyInstalled) disconnected++;
    if (user.goodStanding) goodStanding++;
  }
  return { registered: users.length, active, disconnected, goodStanding };
}
