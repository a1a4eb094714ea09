#!/usr/bin/env node
/**
 * `npm start` and `npm run demo` run this first: it compiles src/ to dist/ (tsc) only when dist/ is
 * missing or older than a source file, so a start takes well under a second once built, and right
 * after `npm ci` (or a `git pull`) the first start builds. Plain JavaScript: it runs before any
 * TypeScript is compiled, and where dev dependencies (TypeScript) are not installed
 * (`npm ci --omit=dev`) it only checks that the build is there.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

/** The first source whose output is missing or older, or undefined when dist/ is current. */
function staleSource() {
  const configs = Math.max(...['tsconfig.json', 'tsconfig.build.json'].map((file) => mtime(join(root, file)) ?? 0));
  for (const entry of readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const source = join(entry.parentPath ?? entry.path, entry.name);
    const output = join(root, 'dist', relative(root, source));
    if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      const built = mtime(output.replace(/\.ts$/, '.js'));
      if (built === undefined || built < Math.max(mtime(source) ?? 0, configs)) return relative(root, source);
    } else if (entry.name.endsWith('.json')) {
      // Only imported JSON is emitted: a copy that exists must be current.
      const built = mtime(output);
      if (built !== undefined && built < (mtime(source) ?? 0)) return relative(root, source);
    }
  }
  return undefined;
}

const stale = staleSource();
if (stale !== undefined) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    console.error(
      `satgate: dist/ is missing or older than ${stale}, and TypeScript is not installed (npm ci --omit=dev?). ` +
        'Build where dev dependencies are installed (npm ci && npm run build), then ship dist/ with the runtime.',
    );
    process.exit(1);
  }
  console.error(`satgate: building dist/ (${stale} changed)`);
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
