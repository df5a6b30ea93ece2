// `npm run bench` for the SDK: each benchmark measures ours beside a baseline in the same run.
import { benchAudience } from './audience.bench.js';
import { benchOffers } from './offers.bench.js';
import { benchSms } from './sms.bench.js';

for (const [title, bench] of [
  ['SMS segmentation (segmentSms vs sms-segments-calculator)', benchSms],
  ['Audience filter and search over 1,000,000 users', benchAudience],
  ['Offer matching over 1,000,000 offers', benchOffers],
] as const) {
  console.log(`\n## ${title}`);
  for (const line of await bench()) console.log(line);
}
