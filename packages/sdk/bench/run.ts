// `npm run bench` for the SDK: each benchmark measures ours beside a baseline in the same run.

import type { FlexUser } from '../src/core/schemas/users.js';
import { BENCH_USERS, benchAudience, usersAsParsed } from './audience.bench.js';
import { benchOffers } from './offers.bench.js';
import { benchSearch } from './search.bench.js';
import { benchSms } from './sms.bench.js';

// Generating and parsing a million users takes longer than both benchmarks that read them.
let users: FlexUser[] | undefined;
const parsedUsers = () => {
  users ??= usersAsParsed(BENCH_USERS);
  return users;
};

for (const [title, bench] of [
  ['SMS segmentation (segmentSms vs sms-segments-calculator)', benchSms],
  ['Audience filters over 1,000,000 users', () => benchAudience(parsedUsers())],
  [
    'Search as you type (createRecipientSearch vs searchRecipients)',
    () => benchSearch(parsedUsers()),
  ],
  ['Offer matching over 1,000,000 offers', benchOffers],
] as const) {
  console.log(`\n## ${title}`);
  for (const line of await bench()) console.log(line);
}
