#!/usr/bin/env node
// Some registries serve only some platforms' builds of packages like @biomejs/cli-* and
// @rollup/rollup-*. npm then leaves the other platforms' optional packages out of
// package-lock.json, and `npm ci` refuses the lock as out of sync. This adds each missing one as
// an optional entry with its os/cpu/libc, which every platform but its own skips without
// fetching. Run it after `npm install` changes the lock: node .ci/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'openharmony',
  'win32',
  'sunos',
  'aix',
];
const CPU = [
  ['arm64', 'arm64'],
  ['x64', 'x64'],
  ['ia32', 'ia32'],
  ['arm-', 'arm'],
  ['loong64', 'loong64'],
  ['ppc64', 'ppc64'],
  ['riscv64', 'riscv64'],
  ['s390x', 's390x'],
];

/** The platform a package like `@rollup/rollup-linux-arm-musleabihf` is built for, from its name. */
function platformOf(name) {
  const tail = name.split('/').pop() ?? name;
  const os = OS.find((o) => tail.includes(`-${o}-`) || tail.endsWith(`-${o}`));
  const cpu = CPU.find(([part]) => tail.includes(`-${part}`) || tail.endsWith(`-${part}`))?.[1];
  if (!os || !cpu) return null;
  const entry = { os: [os], cpu: [cpu] };
  if (os === 'linux') entry.libc = [tail.includes('musl') ? 'musl' : 'glibc'];
  return entry;
}

let added = 0;
for (const [path, info] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(info.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform) {
      console.error(`left out: ${name}@${version} (no platform in its name)`);
      continue;
    }
    packages[`node_modules/${name}`] = {
      version,
      ...platform,
      ...(info.dev ? { dev: true } : {}),
      optional: true,
    };
    added++;
  }
}

const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} optional platform packages added`);
