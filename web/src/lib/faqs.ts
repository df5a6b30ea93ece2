/** The questions the FAQ page answers, in order; each is also an anchor (/faqs#weeklyService). */
export const FAQ_KEYS = ['supportHours', 'limitedUsers', 'weeklyService', 'freeWeek'] as const;
