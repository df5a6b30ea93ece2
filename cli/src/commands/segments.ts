// `blockcatch segments TEXT`: how an SMS text is encoded and split (docs/product.md,
// 'Messages and segments'). `segments -` reads the text from standard input.
import { readFileSync } from 'node:fs';
import { segmentSms } from '@blockcatch/sdk';
import { printJson } from '../output/json.js';
import type { Invocation } from '../program.js';
import { say, setup } from './setup.js';

export async function runSegments(invocation: Invocation<{ json?: true }>): Promise<void> {
  const { t } = await setup(invocation);
  const text =
    invocation.args.length === 1 && invocation.args[0] === '-'
      ? readFileSync(0, 'utf8')
          .replace(/^\uFEFF/, '')
          .replace(/\r?\n$/, '')
      : invocation.args.join(' ');
  const s = segmentSms(text);
  if (invocation.options.json) {
    printJson({
      text,
      encoding: s.encoding,
      segments: s.segments,
      units: s.units,
      perSegment: s.perSegment,
      remaining: s.remainingInSegment,
    });
    return;
  }
  say(
    t('cli.send.segments', {
      encoding: s.encoding,
      segments: s.segments,
      remaining: s.remainingInSegment,
    }),
  );
  say(t('cli.segments.units', { units: s.units, perSegment: s.perSegment }));
}
