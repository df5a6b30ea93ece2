// The driver screens' formatters: every date and time on the driver's saved zone, never the
// device's, so a block reads the same on every screen wherever the phone is.
import { localTimeZone } from '@blockcatch/sdk';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { driverQueries } from '../lib/queries.js';
import { type Formatters, useFormat } from './useFormat.js';

/**
 * The signed-in driver's zone: the one their filters are saved in, as the gateway reads their
 * calendar (its default until they save); undefined while that answer is on its way, and the
 * device's when it cannot be read (the screen says it could not load the calendar).
 */
export function useDriverZone(): string | undefined {
  const zone = useQuery({ ...driverQueries.calendar(), select: (calendar) => calendar.timeZone });
  return zone.isError ? localTimeZone() : zone.data;
}

/**
 * The formatters every driver screen uses: on the driver's zone. `ready` is false until the zone
 * is known, so a screen shows no time on the device's zone first and moves it a moment later.
 */
export function useDriverFormat(): Formatters & { ready: boolean } {
  const zone = useDriverZone();
  const fmt = useFormat(zone);
  return useMemo(() => ({ ...fmt, ready: zone !== undefined }), [fmt, zone]);
}
