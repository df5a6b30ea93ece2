// What the signed-in admin may do (docs/product.md, 'Who uses it'), read once from the session's user.
import { useAuth } from '../useAuth.js';

export interface AdminRole {
  isOwner: boolean;
  billingDetails: boolean;
  /** May clear 'Limit characters' and send SMS longer than one segment. */
  multiSegmentSms: boolean;
}

export function useAdminRole(): AdminRole {
  const { state } = useAuth();
  const role = state.status === 'signed-in' ? state.user.role : null;
  return {
    isOwner: role?.role === 'owner',
    billingDetails: role?.properties.billingDetails === true,
    multiSegmentSms: role?.properties.multiSegmentSms === true,
  };
}
