// The sandbox platform's warehouses (service areas): a fixed list, as a region's list would be.
import type { ServiceArea } from './types.js';

export const SANDBOX_SERVICE_AREAS: readonly ServiceArea[] = [
  { id: 'DAU1', name: 'Austin (DAU1)', timeZone: 'America/Chicago' },
  { id: 'DAU5', name: 'Pflugerville (DAU5)', timeZone: 'America/Chicago' },
  { id: 'DFW6', name: 'Dallas (DFW6)', timeZone: 'America/Chicago' },
  { id: 'DHO2', name: 'Houston (DHO2)', timeZone: 'America/Chicago' },
  { id: 'DMI3', name: 'Miami (DMI3)', timeZone: 'America/New_York' },
  { id: 'DNY4', name: 'Queens (DNY4)', timeZone: 'America/New_York' },
];
