import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { packageRoot } from '../package-root.js';
import { HttpError } from './http-error.js';

/** Where the monitor's built web app lies: `dist/monitor` of the package (vite builds it there). */
export const DEFAULT_MONITOR_DIR = join(packageRoot(), 'dist', 'monitor');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
};

/** A file of the monitor app (`rest` is the path under /monitor/), never one outside its folder. */
export function monitorAsset(dir: string, rest: string): { body: Buffer; contentType: string } {
  if (!existsSync(join(dir, 'index.html'))) {
    throw new HttpError(
      404,
      `the monitor is not built (no ${join(dir, 'index.html')}): run "npm run build" in verbtree's folder`,
    );
  }
  return staticAsset(dir, rest);
}

/** A file under `dir` (`rest` relative to it; '' is index.html), never one outside it. */
export function staticAsset(dir: string, rest: string): { body: Buffer; contentType: string } {
  const file = resolve(dir, rest === '' ? 'index.html' : rest);
  if (file !== dir && !file.startsWith(dir + sep)) throw new HttpError(404, `no monitor file ${rest}`);
  if (!existsSync(file) || !statSync(file).isFile()) throw new HttpError(404, `no monitor file ${rest}`);
  return { body: readFileSync(file), contentType: TYPES[extname(file)] ?? 'application/octet-stream' };
}
