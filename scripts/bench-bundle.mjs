#!/usr/bin/env node
// `npm run bench:bundle`: builds the web client (skip with --no-build to read an existing dist-web)
// and prints, from the Vite manifest, the gzip size of the JavaScript each route needs: the entry
// chunk and its static imports (what the browser loads before anything shows) plus the route's
// lazy chunks and their static imports. Chunks loaded later on demand (highlight.js grammars, the
// toast container after the first screen) are listed separately. Figures only.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'dist-web');

/**
 * The modules each route loads on demand, by their source path in the manifest (relative to
 * src/renderer). A module missing from the manifest is bundled into a chunk the route already
 * counts (the entry, before code splitting), so it adds nothing of its own.
 */
const routes = {
  '/auth (sign-in)': ['src/features/auth/SignInPage.tsx'],
  '/dashboard/chat': ['src/features/dashboard/DashboardLayout.tsx', 'src/features/chat/ChatPage.tsx'],
  '/dashboard/studio': ['src/features/dashboard/DashboardLayout.tsx', 'src/features/studio/StudioPage.tsx'],
  '/dashboard/store': ['src/features/dashboard/DashboardLayout.tsx', 'src/features/store/StorePage.tsx'],
  '/dashboard/developers': ['src/features/dashboard/DashboardLayout.tsx', 'src/features/developers/DevelopersPage.tsx'],
  '/admin/announcements': ['src/features/admin/AdminLayout.tsx', 'src/features/admin/announcements/AnnouncementsPage.tsx'],
  '/setup (desktop)': ['src/features/desktop/ServerSetupPage.tsx'],
};

if (!process.argv.includes('--no-build')) {
  await build({ configFile: join(root, 'vite.web.config.ts'), logLevel: 'warn' });
}
const manifestPath = join(outDir, '.vite/manifest.json');
if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run npm run build:web first`);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

const sizes = new Map();
/** Raw and gzip bytes of one emitted file (gzip level 9, as servers precompress). */
function sizeOf(file) {
  if (!sizes.has(file)) {
    const bytes = readFileSync(join(outDir, file));
    sizes.set(file, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  return sizes.get(file);
}

/** The chunk of `key` and every chunk it imports statically, transitively. */
function staticClosure(keys, into = new Set()) {
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) continue;
    into.add(chunk.file);
    staticClosure(chunk.imports ?? [], into);
  }
  return into;
}

const cssOf = (files) => new Set(Object.values(manifest).flatMap((chunk) => (files.has(chunk.file) ? (chunk.css ?? []) : [])));
const total = (files) => [...files].reduce((sum, file) => sum + sizeOf(file).gzip, 0);
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const initial = staticClosure([entryKey]);

console.log('Initial load (entry chunk + static imports), gzip:');
for (const file of initial) console.log(`  ${file.padEnd(48)} ${kb(sizeOf(file).gzip).padStart(10)}`);
console.log(`  ${'total JS'.padEnd(48)} ${kb(total(initial)).padStart(10)}   CSS ${kb(total(cssOf(initial)))}\n`);

console.log('route                        | JS gzip   | of which lazy | CSS gzip | lazy chunks');
console.log('---------------------------- | --------- | ------------- | -------- | -----------');
for (const [route, modules] of Object.entries(routes)) {
  const files = staticClosure([entryKey, ...modules.filter((module) => manifest[module])]);
  const lazy = [...files].filter((file) => !initial.has(file));
  console.log(
    [
      route.padEnd(28),
      kb(total(files)).padEnd(9),
      kb(total(lazy)).padEnd(13),
      kb(total(cssOf(files))).padEnd(8),
      lazy.map((file) => file.replace(/^assets\//, '')).join(', ') || '—',
    ].join(' | '),
  );
}

// Strings in their own chunk: other languages arrive before the first screen shows; English beyond
// the first screens' namespaces arrives with the first screen opened after them.
for (const [language, when] of [
  ['en', 'loaded with the first screen after sign-in'],
  ['ko', 'loaded before the first screen'],
  ['ja', 'loaded before the first screen'],
]) {
  const files = new Set(Object.values(manifest).flatMap((chunk) => (chunk.name === `locale-${language}` ? [chunk.file] : [])));
  if (files.size > 0) console.log(`${`  + strings in ${language}`.padEnd(28)} | ${kb(total(files)).padEnd(9)} | ${when}`);
}

const onDemand = Object.values(manifest).filter(
  (chunk) => chunk.isDynamicEntry && !Object.values(routes).flat().includes(chunk.src) && !chunk.src.includes('/locales/'),
);
if (onDemand.length > 0) {
  const sorted = onDemand.map((chunk) => ({ name: chunk.src, gzip: sizeOf(chunk.file).gzip })).sort((a, b) => b.gzip - a.gzip);
  console.log(`\nOther on-demand chunks: ${onDemand.length}, ${kb(sorted.reduce((sum, chunk) => sum + chunk.gzip, 0))} gzip in all; largest:`);
  for (const chunk of sorted.slice(0, 6)) console.log(`  ${chunk.name.padEnd(60)} ${kb(chunk.gzip).padStart(10)}`);
}
