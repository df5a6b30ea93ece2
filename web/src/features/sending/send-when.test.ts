import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };
import { sendWhenText } from './send-when.js';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: en }, es: { translation: es } },
    interpolation: { escapeValue: false },
  });
});
const say = (language: string, options: Parameters<typeof sendWhenText>[2]) =>
  sendWhenText(i18n.getFixedT(language), language, options).replace(/\s/g, ' ');

describe('sendWhenText', () => {
  it('says how many leave now and how many at 8 am when some are in quiet hours', () => {
    expect(say('en', { queued: 415, waiting: 12, when: undefined })).toBe(
      'Sends 403 now, 12 at 8:00 AM in their time zone (after quiet hours).',
    );
    expect(say('es', { queued: 415, waiting: 12, when: undefined })).toBe(
      'Se envían 403 ahora y 12 a las 8:00 en su zona horaria (después de las horas de silencio).',
    );
  });

  it('says all wait when every recipient is in quiet hours', () => {
    expect(say('en', { queued: 2, waiting: 2, when: undefined })).toBe(
      'Sends all 2 at 8:00 AM in their time zone (after quiet hours).',
    );
    expect(say('es', { queued: 1, waiting: 1, when: undefined })).toBe(
      'Se envía a las 8:00 en su zona horaria (después de las horas de silencio).',
    );
  });

  it('says only when it sends when nobody waits', () => {
    expect(say('en', { queued: 40, waiting: 0, when: undefined })).toBe('Sends now.');
    expect(say('en', { queued: 40, waiting: 0, when: 'Dec 21, 2026, 9:00 AM' })).toBe(
      'Sends on Dec 21, 2026, 9:00 AM.',
    );
    expect(say('en', { queued: 40, waiting: 5, when: 'Dec 21, 2026, 9:00 AM' })).toBe(
      'Sends 35 on Dec 21, 2026, 9:00 AM, 5 at 8:00 AM in their time zone (after quiet hours).',
    );
  });
});
