// A driver's calendar as staff see it (the driver's own is shared with the home screen).
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const calendarQueries = {
  userCalendar: (phoneNumber: string) =>
    queryOptions({
      queryKey: ['admin', 'userCalendar', phoneNumber],
      queryFn: () => gateway.admin.userCalendar(phoneNumber),
    }),
};
