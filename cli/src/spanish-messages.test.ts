// The send plan, the phone lists, the audience, the global options and login speak the language
// the run chose: every message of these paths, asked in Spanish, comes back in Spanish.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickTemplate, readSendRequest, smsContent } from './commands/send/plan.js';
import { parseGlobalOptions } from './global-options.js';
import { chooseLanguage } from './i18n.js';
import { readPhoneFile } from './phone-lists.js';

const dir = mkdtempSync(join(tmpdir(), 'blockcatch-es-'));

beforeAll(() => {
  chooseLanguage('es');
});

afterAll(() => {
  chooseLanguage('en');
});

/** The message `run` throws. */
function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a throw');
}

describe('in Spanish', () => {
  it('refuses bad send flags in Spanish', () => {
    const send = (o: Partial<Parameters<typeof readSendRequest>[1]>, channel = 'sms') =>
      thrown(() => readSendRequest(channel, { audience: 'flex', var: [], ...o }));
    expect(send({}, 'fax')).toBe('<channel>: "fax" no es válido; usa sms o whatsapp.');
    expect(send({ audience: 'uber' })).toContain('usa flex, spark o invitees.');
    expect(send({ message: 'Hola', batchSize: '0' })).toContain(
      'indica un número entero de 1 a 100000.',
    );
    expect(send({ message: 'Hola', key: 'a b' })).toContain('usa de 1 a 150 letras');
    expect(send({ message: 'Hola', template: 'x' })).toBe(
      '--message, --message-file y --template: indica exactamente uno.',
    );
    expect(send({ template: 'x' })).toContain('las plantillas son para WhatsApp');
    expect(send({}, 'whatsapp')).toMatch(
      /^send whatsapp necesita --template NOMBRE \(consulta `.*templates list`\)\.$/,
    );
    expect(send({})).toBe('send sms necesita el texto: --message TEXTO o --message-file ARCHIVO.');
    expect(send({ message: 'Hola' })).toContain('No es una terminal, así que no hay confirmación');
    expect(send({ message: 'Hola', dryRun: true, at: 'mañana' })).toContain(
      'indica una fecha y hora como 2026-12-01T09:00.',
    );
    expect(
      send({ message: 'Hola', dryRun: true, audience: 'invitees', region: 'Miami' }),
    ).toContain('no es un filtro de la audiencia invitees');
    expect(send({ message: 'Hola', dryRun: true, registered: 'no' })).toBe(
      '--registered: solo para --audience invitees.',
    );
    expect(send({ messageFile: join(dir, 'missing.txt'), dryRun: true })).toMatch(
      /^--message-file: no se puede leer ".*" \(ENOENT\); indica un archivo de texto UTF-8\.$/,
    );
  });

  it('says what is wrong with the message in Spanish', () => {
    const content = (text: string, audience = 'flex') =>
      thrown(() => smsContent(text, { audience, allowMultipart: false }));
    expect(content('  ')).toContain('el mensaje está vacío');
    expect(content('x'.repeat(200))).toContain(
      "se aplica 'Limitar caracteres' y necesita 2 segmentos SMS",
    );
    expect(content('x'.repeat(200), 'invitees')).toContain(
      'siempre caben en un segmento; acórtalo a 160 o menos.',
    );
  });

  it('names templates in Spanish', () => {
    const tpl = { name: 'renewal', components: [] } as unknown as Parameters<
      typeof pickTemplate
    >[0][number];
    const templates = [
      { ...tpl, language: 'en' },
      { ...tpl, language: 'es' },
    ];
    expect(thrown(() => pickTemplate(templates, 'nope', undefined))).toContain(
      '"nope" no es una plantilla; usa una de: renewal',
    );
    expect(thrown(() => pickTemplate(templates, 'nope', 'fr'))).toContain(
      '"nope" en fr no es una plantilla',
    );
    expect(thrown(() => pickTemplate([], 'nope', undefined))).toContain('usa una de: ninguna');
    expect(thrown(() => pickTemplate(templates, 'renewal', undefined))).toBe(
      '--template: "renewal" existe en en, es; elige uno con --template-language.',
    );
  });

  it('reads phone lists in Spanish', () => {
    expect(thrown(() => readPhoneFile('--only', join(dir, 'none.csv')))).toContain(
      'no se puede leer',
    );
    const noPhone = join(dir, 'names.csv');
    writeFileSync(noPhone, 'name\nAna\n');
    expect(thrown(() => readPhoneFile('--exclude', noPhone))).toContain(
      'no tiene columna de teléfono (encabezados: name); añade un encabezado llamado phone.',
    );
    const broken = join(dir, 'broken.csv');
    writeFileSync(broken, 'phone\n"3055550105\n');
    expect(thrown(() => readPhoneFile('--only', broken))).toContain('no es un CSV legible');
  });

  it('checks the global options in Spanish', () => {
    expect(thrown(() => parseGlobalOptions({ profile: 'no vale' }, {}))).toContain(
      "usa letras, dígitos, '.', '_' o '-'",
    );
    expect(thrown(() => parseGlobalOptions({ gateway: 'ftp://x' }, {}))).toContain(
      'indica una URL http(s)',
    );
    expect(thrown(() => parseGlobalOptions({ lang: 'fr' }, {}))).toContain('usa en o es.');
  });
});
