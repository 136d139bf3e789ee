import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { NodeFeed } from '../../src/api/node-feed.js';
import { apiBot } from '../../src/api/bots.js';
import { createApiServer, type ApiServer } from '../../src/api/server.js';
import { systemClock } from '../../src/clock/index.js';
import { assembleJournaled, type JournaledAssembly } from '../../src/journal/journaled-executor.js';
import type { Journal } from '../../src/journal/journal.js';
import { nodeStateHistory } from '../../src/journal/queries.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';

import { buildMonitor, launchChromium } from './browser.js';
import { createRequire } from 'node:module';
import { botOf } from '../../src/world/mineflayer/index.js';

/*
 * The monitor in a real browser (Debian's chromium through playwright-core) against `verbtree serve`'s API
 * in process, its bot a real mineflayer bot on the embedded server.
 */

const TOKEN = 'monitor-test';
const suite = embeddedSuite({ blocks: [{ x: 3, y: 5, z: 0, block: 'oak_log' }] });
let browser: Browser;
let api: ApiServer;
let assembly: JournaledAssembly;
let journal: Journal;
let url: string;
let feed: NodeFeed;
/** A second bot on the same server, for the fleet view. */
let helper: JournaledAssembly;

beforeAll(async () => {
  const [monitorDir, launched] = await Promise.all([buildMonitor(), launchChromium()]);
  browser = launched;
  // Open for the whole file (the helpers' openTemp closes a journal after each test).
  const temp = { path: join(mkdtempSync(join(tmpdir(), 'verbtree-monitor-journal-')), 'journal.db') };
  journal = SqliteJournal.open(temp.path);
  feed = new NodeFeed(systemClock);
  const bot = await suite.world.connectBot('watched');
  const registry = createDefaultRegistry();
  assembly = await assembleJournaled({
    registry,
    world: bot,
    clock: systemClock,
    journal,
    kind: 'serve',
    hooks: feed.hooksFor('watched'),
  });
  const helperBot = await suite.world.connectBot('helper');
  helper = await assembleJournaled({
    registry,
    world: helperBot,
    clock: systemClock,
    journal,
    kind: 'serve',
    hooks: feed.hooksFor('helper'),
  });
  api = createApiServer({
    journal,
    journalPath: temp.path,
    registry,
    token: TOKEN,
    trees: assembly.catalog,
    monitorDir,
    botStateEveryMs: 200,
    nodeFeed: feed,
    bots: [
      apiBot('watched', assembly, { viewerBot: botOf(bot) }),
      apiBot('helper', helper, { viewerBot: botOf(helperBot) }),
    ],
  });
  url = (await api.listen(0)).url;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  feed?.close();
  await helper?.close();
  await assembly?.close();
  await journal?.close();
});

/** An element as a function evaluated in the page reads it (this project's tsconfig has no DOM lib). */
interface DomElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
}

/** With VERBTREE_SCREENSHOTS=<dir>, the pictures in docs/monitor.md are taken from these runs. */
async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.VERBTREE_SCREENSHOTS;
  if (dir) await page.screenshot({ path: join(dir, name) });
}

async function execute(plan: object, bot = 'watched'): Promise<void> {
  const response = await fetch(`${url}/api/cognitive/execute?bot=${bot}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(plan),
  });
  expect(response.status).toBe(202);
}

async function openLive(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${url}/monitor/#token=${TOKEN}`);
  await page.waitForSelector('[data-connection=live]', { timeout: 10_000 });
  return page;
}

const ended = (planId: string) => (page: Page) =>
  page.waitForSelector(`[data-plan-state]:text-matches("succeeded|failed")`, { timeout: 60_000 }).then(() => planId);

describe('the monitor, live and replayed, in chromium', () => {
  it("draws the running step's tree with its nodes' states as they change, and a failed step's code", async () => {
    const page = await openLive();
    // Every state a node of the navigate tree shows while the plan runs, in the order the page showed them.
    // (A string: this file is typed for Node, the script runs in the page.)
    await page.evaluate(`
      window.seen = [];
      new MutationObserver(() => {
        for (const node of document.querySelectorAll('svg[data-tree=navigate] g.node')) {
          const entry = node.getAttribute('data-path') + '=' + node.getAttribute('data-state');
          if (!window.seen.includes(entry)) window.seen.push(entry);
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    `);
    await execute({
      planId: 'watched-walk',
      intentId: 'i',
      steps: [
        { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 8, y: 5, z: 4 } } },
        { stepId: 'bedrock', type: 'dig_block', args: { position: { x: 0, y: 0, z: 2 } } },
      ],
    });
    await page.waitForSelector('svg[data-tree=navigate] g.node', { timeout: 15_000 });
    const labels = await page.$$eval('svg[data-tree=navigate] g.node text', (texts: DomElement[]) =>
      texts.map((t) => t.textContent ?? ''),
    );
    expect(labels).toContain('root: navigate');
    expect(labels.some((l) => l.includes('goto'))).toBe(true);
    await ended('watched-walk')(page);
    // Node states come in batches every 100 ms, beside the events: the last batch may follow the plan's end.
    await page.waitForSelector('svg[data-tree=navigate] g.node[data-path$="action(goto)"][data-state=succeeded]', {
      timeout: 5_000,
    });
    const seen = await page.evaluate<string[]>('window.seen');
    const goto = seen.filter((entry) => entry.includes('action(goto)'));
    expect(goto.map((entry) => entry.split('=')[1])).toEqual(['running', 'succeeded']);
    expect(await page.textContent('[data-step=walk] td:nth-child(3)')).toBe('ok');
    expect(await page.textContent('[data-step=bedrock] .code')).toBe('guard_failed');
    // The measured SLA per capability, as the journal holds it, once the page reads it again.
    await page.waitForSelector('[data-sla] td:text-is("navigate")', { timeout: 15_000 });
    await screenshot(page, 'monitor-live.png');
    await page.close();
  }, 90_000);

  it('pauses and resumes the running plan from its buttons (with the token), each shown as the plan state', async () => {
    const page = await openLive();
    await execute({
      planId: 'watched-long-walk',
      intentId: 'i',
      steps: [1, 2, 3].map((n) => ({
        stepId: `leg-${n}`,
        type: 'navigate',
        args: { target: { kind: 'block', x: n % 2 === 0 ? -6 : 6, y: 5, z: 6 * n } },
      })),
    });
    await page.waitForSelector('[data-plan=""], [data-plan]', { timeout: 10_000 });
    await page.waitForSelector('[data-step=leg-1]', { timeout: 10_000 });
    await page.click('[data-control=pause]');
    await page.waitForSelector('[data-plan-state]:text("paused")', { timeout: 30_000 });
    const pausedAt = await page.$$eval('[data-step]', (rows: DomElement[]) => rows.length);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await page.$$eval('[data-step]', (rows: DomElement[]) => rows.length)).toBe(pausedAt);
    await page.click('[data-control=resume]');
    await page.waitForSelector('[data-plan-state]:text("succeeded")', { timeout: 60_000 });
    expect(
      await page.$$eval('[data-step]', (rows: DomElement[]) => rows.map((r) => r.getAttribute('data-status'))),
    ).toEqual(['ok', 'ok', 'ok']);
    await page.close();
  }, 120_000);

  it('marks the node that was acting when a step is cut short (cancel), with the code', async () => {
    const page = await openLive();
    await execute({
      planId: 'watched-cut',
      intentId: 'i',
      steps: [{ stepId: 'far', type: 'navigate', args: { target: { kind: 'block', x: 40, y: 5, z: 40 } } }],
    });
    await page.waitForSelector('svg[data-tree=navigate] g.node[data-path$="action(goto)"][data-state=running]', {
      timeout: 15_000,
    });
    await page.click('[data-control=cancel]');
    await page.waitForSelector('[data-plan-state]:text-matches("failed")', { timeout: 30_000 });
    const failing = await page.waitForSelector('svg[data-tree=navigate] g.node.failing', { timeout: 5_000 });
    expect(await failing.getAttribute('data-path')).toMatch(/action\(goto\)$/);
    const code = await page.textContent('[data-failure] .code');
    expect(code).toMatch(/^[a-z_]+$/);
    expect(await failing.textContent()).toContain(code!);
    await page.close();
  }, 60_000);

  it('a page opened mid-plan shows the plan from its start: the steps before it connected come from the journal, none twice', async () => {
    await execute({
      planId: 'watched-late',
      intentId: 'i',
      steps: [1, 2, 3].map((n) => ({
        stepId: `late-${n}`,
        type: 'navigate',
        args: { target: { kind: 'block', x: n % 2 === 0 ? -4 : 4, y: 5, z: 4 * n } },
      })),
    });
    const started = async () =>
      (await journal.planProvenance('watched-late'))?.steps.some(
        (s) => s.step.step_id === 'late-2' && s.step.status !== 'pending',
      ) === true;
    for (let i = 0; i < 400 && !(await started()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await started()).toBe(true);
    const page = await openLive();
    await page.waitForSelector('[data-step=late-1][data-status=ok]', { timeout: 10_000 });
    await page.waitForSelector('[data-plan-state]:text("succeeded")', { timeout: 60_000 });
    expect(await page.textContent('[data-plan]')).toBe('watched-late');
    expect(
      await page.$$eval('[data-step]', (rows: DomElement[]) =>
        rows.map((r) => `${r.getAttribute('data-step')}=${r.getAttribute('data-status')}`),
      ),
    ).toEqual(['late-1=ok', 'late-2=ok', 'late-3=ok']);
    await page.close();
  }, 90_000);

  it("shows every bot on the server: a card each with its state, the chosen one's timeline and tree, the others on its map", async () => {
    const page = await openLive();
    await page.waitForSelector('[data-fleet] [data-bot=helper]', { timeout: 10_000 });
    expect(
      await page.$$eval('[data-fleet] [data-bot]', (cards: DomElement[]) =>
        cards.map((c) => c.getAttribute('data-bot')),
      ),
    ).toEqual(['watched', 'helper']);
    expect(await page.textContent('[data-selected-bot]')).toBe('watched');
    await execute(
      {
        planId: 'helper-walk',
        intentId: 'i',
        steps: [{ stepId: 'helper-leg', type: 'navigate', args: { target: { kind: 'block', x: -5, y: 5, z: -5 } } }],
      },
      'helper',
    );
    await page.waitForSelector(
      '[data-bot=helper][data-bot-state=EXECUTING], [data-bot=helper][data-bot-state=COMPLETED]',
      { timeout: 15_000 },
    );
    await page.click('[data-bot=helper]');
    expect(await page.textContent('[data-selected-bot]')).toBe('helper');
    await page.waitForSelector('[data-step=helper-leg]', { timeout: 10_000 });
    await page.waitForSelector('[data-plan-state]:text("succeeded")', { timeout: 60_000 });
    expect(await page.textContent('[data-plan]')).toBe('helper-walk');
    // The helper's own tree, and not one of the watched bot's steps in its timeline.
    await page.waitForSelector('svg[data-tree=navigate] g.node[data-path$="action(goto)"][data-state=succeeded]', {
      timeout: 5_000,
    });
    expect(
      await page.$$eval('[data-step]', (rows: DomElement[]) => rows.map((r) => r.getAttribute('data-step'))),
    ).toEqual(['helper-leg']);
    await page.waitForSelector('[data-map] [data-other-bot=watched]', { timeout: 5_000 });
    await screenshot(page, 'monitor-fleet.png');
    // The choice rides in the address: a reload shows the same bot.
    expect(new URL(page.url()).hash).toContain('bot=helper');
    await page.close();
  }, 90_000);

  it("shows each bot's world in 3D (prismarine-viewer) beside the tree: the page, and the world's chunks sent for Minecraft 1.21.4", async () => {
    // The server side, as the viewer's page speaks to it: the version first, then the chunks around the bot.
    const viewerRequire = createRequire(createRequire(import.meta.url).resolve('prismarine-viewer/package.json'));
    const { io } = viewerRequire('socket.io-client') as {
      io: (
        url: string,
        options: object,
      ) => { on(event: string, listener: (payload: unknown) => void): void; close(): void };
    };
    for (const name of ['watched', 'helper']) {
      const client = io(url, { path: `/viewer/${name}/socket.io`, transports: ['websocket'] });
      const seen = await new Promise<{ version: unknown; chunks: number }>((resolve, reject) => {
        let version: unknown;
        let chunks = 0;
        const timer = setTimeout(
          () => reject(new Error(`no chunks within 15 s (version ${String(version)}, ${chunks} chunks)`)),
          15_000,
        );
        client.on('version', (v) => (version = v));
        client.on('loadChunk', () => {
          if (++chunks === 4) {
            clearTimeout(timer);
            resolve({ version, chunks });
          }
        });
      });
      client.close();
      expect(seen).toEqual({ version: '1.21.4', chunks: 4 });
    }
    // The monitor frames the viewer's page, which draws on a canvas.
    const page = await openLive();
    await page.click('[data-show-3d]', { timeout: 10_000 });
    await page.waitForSelector('iframe[data-viewer]', { timeout: 10_000 });
    expect(await page.getAttribute('iframe[data-viewer]', 'src')).toBe('/viewer/watched/');
    // (A frame locator waits through the frame's own navigation, which may not have begun yet.)
    await page.frameLocator('iframe[data-viewer]').locator('canvas').waitFor({ timeout: 20_000 });
    await page.close();
  }, 60_000);

  it('replays the journaled run: the slider steps through the same node states, in the same order, as the journal holds', async () => {
    const journaled = (await nodeStateHistory(journal, 'watched-walk', { after: 0, limit: 100_000 }))!.rows;
    expect(journaled.length).toBeGreaterThan(0);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${url}/monitor/#token=${TOKEN}&replay=watched-walk`);
    await page.waitForSelector('[data-slider]', { timeout: 15_000 });
    const shown: string[][] = [];
    for (let index = 0; index < journaled.length; index++) {
      await page.evaluate(`(() => {
        const slider = document.querySelector('[data-slider]');
        slider.value = '${index}';
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      })()`);
      const tree = journaled[index]!.tree;
      // The page has drawn this change once its section names it and the tree is the row's.
      await page.waitForSelector(
        `[data-index="${index}"] ~ section svg[data-tree=${tree}], section[data-index="${index}"] ~ section svg[data-tree=${tree}]`,
        { timeout: 10_000 },
      );
      // The events up to this change include its step's start, and where the bot stood is shown.
      const log = (await page.textContent('[data-replay-events]')) ?? '';
      expect(log, `change ${index}`).toContain(`step.started ${journaled[index]!.stepId}`);
      expect(await page.textContent('[data-replay-position]')).toMatch(/^x -?\d+\.\d, y -?\d+\.\d, z -?\d+\.\d$/);
      shown.push(
        await page.$$eval(`svg[data-tree=${tree}] g.node`, (nodes: DomElement[]) =>
          nodes
            .filter((n) => n.getAttribute('data-state') !== 'ready')
            .map((n) => `${n.getAttribute('data-path')}=${n.getAttribute('data-state')}`)
            .sort(),
        ),
      );
    }
    // What the journal says each node stood at after each row, for that row's step.
    const expected = journaled.map((row, index) => {
      const states = new Map<string, string>();
      for (const r of journaled.slice(0, index + 1))
        if (r.stepId === row.stepId && r.attemptId === row.attemptId)
          for (const [path, state] of r.changes) states.set(path, state);
      return [...states]
        .filter(([, state]) => state !== 'ready')
        .map(([path, state]) => `${path}=${state}`)
        .sort();
    });
    expect(shown).toEqual(expected);
    await screenshot(page, 'monitor-replay.png');
    await page.close();
  }, 120_000);
});
