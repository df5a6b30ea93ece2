// The settings as people read them, made from their declarations in config.ts: the table in
// docs/operations.md and the environment part of `--help`, so neither can miss or misstate one.
import { z } from 'zod';
import { listSettings, type Setting } from './config.js';

/** The schema's default, shown as text: `10`, `on`, `127.0.0.1`; '' when it has none. */
function defaultOf({ schema, meta }: Setting): string {
  if (meta.defaultText) return meta.defaultText;
  for (let at: z.ZodType | undefined = schema; at; ) {
    const def = at._zod.def as {
      type: string;
      defaultValue?: unknown;
      innerType?: z.ZodType;
      in?: z.ZodType;
    };
    if (def.type === 'default' || def.type === 'prefault') {
      const value = def.defaultValue;
      if (typeof value === 'boolean') return value ? '`on`' : '`off`';
      if (Array.isArray(value)) return value.map((v) => `\`${v}\``).join(', ');
      return value === undefined || typeof value === 'object' ? '' : `\`${String(value)}\``;
    }
    at = def.innerType ?? def.in;
  }
  return 'unset';
}

const number = new Intl.NumberFormat('en-US');

/** The bounds the schema checks, in words: `1–500`, `sms, whatsapp`, `16–256 characters`. */
function boundsOf({ schema }: Setting): string {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
  } catch {
    return '';
  }
  const anyOf = (json.anyOf as Record<string, unknown>[] | undefined)?.find(
    (option) => option.type !== 'null',
  );
  const shape = anyOf ?? json;
  if (Array.isArray(shape.enum)) return shape.enum.map((v) => `\`${v}\``).join(', ');
  const range = (min: unknown, max: unknown, unit = '') => {
    if (typeof min !== 'number' && typeof max !== 'number') return '';
    const low = typeof min === 'number' ? number.format(min) : '';
    const high = typeof max === 'number' ? number.format(max) : '';
    const text = high ? `${low || '…'}–${high}` : `≥ ${low}`;
    return unit ? `${text} ${unit}` : text;
  };
  if (shape.type === 'number' || shape.type === 'integer') {
    const max = shape.maximum === Number.MAX_SAFE_INTEGER ? undefined : shape.maximum;
    if (shape.exclusiveMinimum === 0 && max === undefined) return '> 0';
    return range(shape.minimum, max);
  }
  // Any non-empty text is no bound worth a word.
  if (shape.type === 'string' && !(shape.minLength === 1 && shape.maxLength === undefined)) {
    return range(shape.minLength, shape.maxLength, 'characters');
  }
  return '';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The settings table of docs/operations.md, between its two marker comments. */
export function renderSettingsTable(): string {
  const rows = listSettings().map((setting) => {
    const { meta } = setting;
    const names = [meta.env, ...(meta.also ?? [])].map((name) => `\`${name}\``).join(', ');
    return [
      names,
      meta.flag ? `\`${meta.flag}\`` : '',
      defaultOf(setting),
      boundsOf(setting),
      meta.doc,
    ].map(cell);
  });
  const header = ['variable', 'flag', 'default', 'bounds', 'meaning'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** `--help`'s list of variables: each with its default and bounds, and its meaning's first sentence. */
export function renderEnvironmentHelp(): string {
  const settings = listSettings();
  const width = Math.max(...settings.map((s) => s.meta.env.length));
  return settings
    .map((setting) => {
      const { meta } = setting;
      const facts = [defaultOf(setting), boundsOf(setting)].filter(Boolean).join('; ');
      const text = `${summary(meta.doc)}${facts ? ` (${facts.replace(/`/g, '')})` : ''}`;
      return `  ${meta.env.padEnd(width)}  ${text}`;
    })
    .join('\n');
}

/** A meaning's first sentence, as a terminal shows it (without Markdown's backticks). */
export function summary(doc: string): string {
  return doc.split(/(?<=\.)\s/)[0]!.replace(/`/g, '');
}
