import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';

/** Debian's chromium, which `.ci/run` installs when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';

/** A headless chromium, or an error naming the package to install: a browser test never skips silently. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the monitor's browser tests need Debian's chromium at ${CHROMIUM}: install it with "apt-get install chromium" (as root; .ci/run does this when it is missing)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
  });
}

/** The monitor app built from its sources now, into a fresh folder: a test never sees a stale dist/. */
export async function buildMonitor(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'verbtree-monitor-'));
  await build({
    configFile: fileURLToPath(new URL('../../src/monitor/vite.config.ts', import.meta.url)),
    build: { outDir, emptyOutDir: true },
    logLevel: 'error',
  });
  return outDir;
}
