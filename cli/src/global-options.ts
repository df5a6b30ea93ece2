// The options every command takes, validated once: a bad one is a usage error naming the flag.
import { withoutTrailingSlashes } from '@blockcatch/sdk';
import { z } from 'zod';
import { badFlag } from './errors.js';
import { localeLanguage, t } from './i18n.js';

export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:8787';

export interface GlobalOptions {
  profile: string;
  gateway: string;
  lang: 'en' | 'es';
  verbose: boolean;
}

const profileSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
const gatewaySchema = z.url({ protocol: /^https?$/ });
const langSchema = z.enum(['en', 'es']);

export function parseGlobalOptions(
  raw: { profile?: string; gateway?: string; lang?: string; verbose?: boolean },
  env = process.env,
): GlobalOptions {
  const profile = raw.profile ?? env.BLOCKCATCH_PROFILE ?? 'default';
  if (!profileSchema.safeParse(profile).success) {
    throw badFlag('--profile', profile, t('cli.errors.profileFix'));
  }
  const gateway = raw.gateway ?? env.BLOCKCATCH_GATEWAY_URL ?? DEFAULT_GATEWAY_URL;
  if (!gatewaySchema.safeParse(gateway).success) {
    throw badFlag(
      raw.gateway ? '--gateway' : 'BLOCKCATCH_GATEWAY_URL',
      gateway,
      t('cli.errors.gatewayFix', { url: DEFAULT_GATEWAY_URL }),
    );
  }
  const lang = raw.lang ?? env.BLOCKCATCH_LANG ?? localeLanguage(env);
  const parsedLang = langSchema.safeParse(lang.slice(0, 2).toLowerCase());
  if (!parsedLang.success) {
    throw badFlag(raw.lang ? '--lang' : 'BLOCKCATCH_LANG', lang, t('cli.errors.langFix'));
  }
  return {
    profile,
    // The banner prints the API as `<gateway>/api`: either spelling names the same gateway.
    gateway: withoutTrailingSlashes(gateway).replace(/\/api$/, ''),
    lang: parsedLang.data,
    verbose: raw.verbose === true,
  };
}
