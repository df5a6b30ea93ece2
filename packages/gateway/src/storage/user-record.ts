// A row of the users table as the database stores it, and the columns the admin tables' rows are
// built from: one shape for the queries (users.ts) and for the export's page reader.
import type { Product } from '@blockcatch/sdk';

export interface UserRecord {
  id: string;
  product: Product;
  phone_number: string;
  name: string;
  is_admin: boolean;
  role: string | null;
  can_see_billing: boolean;
  can_send_multi_segment: boolean;
  /** May approve another admin's send that waits for approval (owners always may). */
  can_approve_sends?: boolean;
  referral: string | null;
  referral_code: string | null;
  human_region: string | null;
  delivery_area: string | null;
  good_standing: boolean;
  proxy_installed: boolean;
  setup_complete: boolean;
  create_date_ts: number;
  expiration_ts: number | null;
  stripe_express_id: string | null;
  status: 'start' | 'stop';
  /** The language texts to this user are written in ('en' unless they chose another). */
  preferred_language?: string;
}

/** The columns a table row is built from. */
export type TableRecord = Pick<
  UserRecord,
  | 'name'
  | 'phone_number'
  | 'referral'
  | 'good_standing'
  | 'proxy_installed'
  | 'setup_complete'
  | 'create_date_ts'
  | 'expiration_ts'
  | 'stripe_express_id'
  | 'status'
  | 'human_region'
  | 'delivery_area'
>;
