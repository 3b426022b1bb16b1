import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
const own = (name: string) => fileURLToPath(new URL(`./assets/${name}`, import.meta.url));

// chart.js exports no path to its UMD build, so it is found beside the package's main file.
// Scripts come from the installed packages (node_modules), never a CDN, so the CSP can say
// script-src 'self' and the portal works on a network without internet access.
const files: Record<string, { path: () => string; type: string }> = {
  'htmx.min.js': { path: () => require.resolve('htmx.org/dist/htmx.min.js'), type: 'text/javascript; charset=utf-8' },
  'chart.umd.min.js': { path: () => path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js'), type: 'text/javascript; charset=utf-8' },
  'charts.js': { path: () => own('charts.js'), type: 'text/javascript; charset=utf-8' },
  'portal.css': { path: () => own('portal.css'), type: 'text/css; charset=utf-8' },
};

/** One static file, loaded once. */
export interface StaticAsset {
  body: Buffer;
  type: string;
}

/**
 * Loads the portal's scripts and styles into memory (a few hundred kB) at start-up.
 *
 * @example
 * const assets = await loadStaticAssets(); assets.get('htmx.min.js')?.body;
 */
export async function loadStaticAssets(): Promise<Map<string, StaticAsset>> {
  const out = new Map<string, StaticAsset>();
  for (const [name, f] of Object.entries(files)) out.set(name, { body: await readFile(f.path()), type: f.type });
  return out;
}
