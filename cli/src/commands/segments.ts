// `blockcatch segments TEXT`: how an SMS text is encoded and split (docs/product.md,
// 'Messages and segments'). `segments -` reads the text from standard input.
import { defineCommand } from '../command.js';
import { t } from '../i18n.js';

export const segments = defineCommand({
  name: 'segments',
  description: 'cli.help.segments',
  flags: (c) =>
    c.argument('<text...>', t('cli.help.segmentsText')).option('--json', t('cli.help.jsonPlain')),
  examples: [
    'blockcatch segments "Your week ends today"',
    'blockcatch segments "Precio: 10€" --json',
  ],
  async run(invocation) {
    const [{ readFileSync }, { segmentSms }, { printJson }, { say, setup }] = await Promise.all([
      import('node:fs'),
      import('@blockcatch/sdk'),
      import('../output/json.js'),
      import('../setup.js'),
    ]);
    const { t } = await setup(invocation);
    const [words] = invocation.args;
    const text =
      words.length === 1 && words[0] === '-'
        ? readFileSync(0, 'utf8')
            .replace(/^\uFEFF/, '')
            .replace(/\r?\n$/, '')
        : words.join(' ');
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
  },
});
