// `npm run bench` for the CLI: prints the export and cold-start figures, one line each.
import { benchExport } from './export.bench.js';

for (const line of await benchExport()) console.log(line);
