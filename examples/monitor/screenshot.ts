/*
 * A picture of a running monitor with its 3D view open, as docs/monitor.md's demo picture was taken:
 *
 *   npm run demo:monitor            # prints "monitor: http://127.0.0.1:7071/monitor/#token=…"
 *   npx tsx examples/monitor/screenshot.ts '<that address>' monitor-demo.png [wait-ms]
 *
 * Debian's chromium (/usr/bin/chromium) through playwright-core, as the monitor's browser tests drive it; the 3D
 * view renders in software (swiftshader) there, so give it time (default 30 s) to mesh the chunks.
 */
import { chromium } from 'playwright-core';

const [url, out, wait = '30000'] = process.argv.slice(2);
if (!url || !out) {
  console.error("usage: npx tsx examples/monitor/screenshot.ts '<monitor address with #token=…>' <out.png> [wait-ms]");
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-background-networking', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(url);
  await page.waitForSelector('[data-connection=live]', { timeout: 10_000 });
  await page.waitForSelector('svg[data-tree] g.node', { timeout: 60_000 });
  await page.click('[data-show-3d]', { timeout: 10_000 });
  await page.frameLocator('iframe[data-viewer]').locator('canvas').waitFor({ timeout: 20_000 });
  await new Promise((resolve) => setTimeout(resolve, Number(wait)));
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
