import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JournalOpenError, type Journal } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/open.js';
import { PG_MIGRATIONS } from '../../src/journal/postgres/migrations.js';
import { PostgresJournal } from '../../src/journal/postgres/postgres-journal.js';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { apiBot } from '../../src/api/bots.js';
import { createApiServer } from '../../src/api/server.js';
import { systemClock } from '../../src/clock/index.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { cli } from '../helpers/cli.js';
import { cliProcess, finished, untilEvent } from './cli-process.js';
import { CONFIG, cliIn, userProject } from '../helpers/user-project.js';
import { pgProxy } from '../helpers/pg-proxy.js';
import { rawClient, startPostgres } from '../helpers/postgres.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { stepFields, tempJournalPath, walkCraftBack } from './helpers.js';
import { match } from '../helpers/matchers.js';

const cluster = usePostgres();

const event = (planId: string, stepId: string) => ({
  event: { type: 'step.warning' as const, at: 0, planId, stepId, verb: 'navigate', message: stepId },
  runnerId: null,
});

async function withJournal<T>(url: string, use: (journal: Journal) => Promise<T>): Promise<T> {
  const journal = await openJournal(url);
  try {
    return await use(journal);
  } finally {
    await journal.close();
  }
}

describe('opening a PostgreSQL journal', () => {
  it('names an unreachable database and the fix, with the password masked; the CLI says so without a stack trace', async () => {
    const url = 'postgres://verbtree:s3cret@127.0.0.1:1/fleet';
    const opened = openJournal(url);
    await expect(opened).rejects.toThrow(JournalOpenError);
    await expect(opened).rejects.toThrow(
      /^cannot reach the PostgreSQL journal at postgres:\/\/verbtree:\*\*\*@127\.0\.0\.1:1\/fleet: .*ECONNREFUSED.*; start PostgreSQL there, or fix --journal \(postgres:\/\/user:password@host:port\/database\)$/,
    );
    const runs = await cli('runs', '--journal', url);
    expect(runs.code).toBe(2);
    expect(runs.err).toContain('cannot reach the PostgreSQL journal at postgres://verbtree:***@127.0.0.1:1/fleet');
    expect(runs.err).not.toContain('s3cret');
    expect(runs.err).not.toMatch(/\n\s+at /);
    await expect(openJournal(cluster.url('nothere'))).rejects.toThrow(
      /database "nothere" does not exist; create that database \(createdb <name>\) or fix the database name in --journal$/,
    );
  });

  it('migrates once when two processes open a new database at once, and a reading command refuses a database never journaled to', async () => {
    const url = await cluster.database();
    await expect(openJournal(url, { mustExist: true })).rejects.toThrow(/holds no verbtree journal yet/);
    const [a, b] = await Promise.all([openJournal(url), openJournal(url)]);
    const latest = PG_MIGRATIONS.length;
    expect([await a.schemaVersion(), await b.schemaVersion()]).toEqual([latest, latest]);
    await Promise.all([a.close(), b.close()]);
    expect(await withJournal(url, (j) => j.schemaVersion())).toBe(latest);
  });

  it("never migrates another application's database, and refuses one written by a newer verbtree", async () => {
    const foreign = await cluster.database();
    const other = await rawClient(foreign);
    await other.query('CREATE TABLE plans (id serial PRIMARY KEY, name text)');
    await expect(openJournal(foreign)).rejects.toThrow(
      /is a PostgreSQL database but not a verbtree journal \(it has tables of its own named plans\): give verbtree a database of its own \(createdb verbtree\)/,
    );
    expect((await other.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows).toEqual([
      { n: 1 },
    ]);
    await other.end();

    const newer = await cluster.database();
    await withJournal(newer, () => Promise.resolve());
    const raw = await rawClient(newer);
    await raw.query('UPDATE verbtree_schema SET version = version + 1');
    await raw.end();
    const known = PG_MIGRATIONS.length;
    await expect(openJournal(newer)).rejects.toThrow(
      `was written by a newer verbtree (journal schema ${known + 1}, this one knows up to ${known}): upgrade verbtree or use another --journal database`,
    );
  });
});

/**
 * How many sessions matching `where` wait for a lock, polled until one does (at most 1,000 reads), on a connection of
 * its own outside any transaction: pg_stat_activity is a snapshot taken once per transaction, so a poll from inside
 * one would never see a session that began to wait after its first read.
 */
async function lockWaiters(url: string, where: string): Promise<number> {
  const watcher = await rawClient(url);
  try {
    let waiting = 0;
    for (let polls = 0; polls < 1_000 && waiting === 0; polls++) {
      const { rows } = await watcher.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND ${where}`,
      );
      waiting = rows[0]!.n;
    }
    return waiting;
  } finally {
    await watcher.end();
  }
}

describe('fencing against a claim in flight', () => {
  it('a fenced write that meets a claim not yet committed waits for it, then is refused: it never lands after the claim', async () => {
    const url = await cluster.database();
    await withJournal(url, async (journal) => {
      await journal.addBot({ name: 'ann' });
      const old = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', 60_000))! };
      await journal.beginRun({ planId: 'p', intentId: 'i', steps: [], body: {}, runnerId: null }, old);
      // Another worker's claim is under way (its lease row locked FOR UPDATE and updated, as claimBot does; not yet
      // committed)…
      const claim = await rawClient(url);
      await claim.query('BEGIN');
      await claim.query("SELECT bot FROM bot_leases WHERE bot = 'ann' FOR UPDATE");
      await claim.query("UPDATE bot_leases SET holder = 'w2', epoch = epoch + 1 WHERE bot = 'ann'");
      // …when the old holder writes. Its fence check must wait on that row, not read the last committed epoch.
      const write = journal.setPlanStatus('p', 'failed', old).then(
        () => 'written',
        (error: { code?: string }) => error.code,
      );
      const waiting = await lockWaiters(url, 'datname = current_database()');
      await claim.query('COMMIT');
      await claim.end();
      expect(waiting).toBe(1);
      expect(await write).toBe('lease_lost');
      expect((await journal.plan('p'))?.status).toBe('running');
    });
  });
});

describe('renewing leases while every connection of the pool is taken', () => {
  it("a renewal and a claim go through on the lease pool while the bots' pool is taken by a write that waits", async () => {
    const url = await cluster.database();
    const journal = await PostgresJournal.open(url, { poolSize: 1 });
    try {
      await journal.addBot({ name: 'ann' });
      await journal.addBot({ name: 'bob' });
      const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', 60_000))! };
      await journal.beginRun({ planId: 'p', intentId: 'i', steps: [], body: {}, runnerId: null }, fence);
      // The pool's one connection is taken by a write that waits for a row another session holds (unfenced: a fenced
      // write's share lock on the lease row would hold the renewal back by itself, whatever its connection).
      const other = await rawClient(url);
      await other.query('BEGIN');
      await other.query("SELECT plan_id FROM plans WHERE plan_id = 'p' FOR UPDATE");
      const write = journal.setPlanStatus('p', 'failed');
      expect(await lockWaiters(url, "datname = current_database() AND query LIKE '%UPDATE plans%'")).toBe(1);
      // The worker's renewal and claim do not wait for that connection.
      expect(await journal.renewLeases('w1', 60_000)).toEqual([fence]);
      expect(await journal.claimBot('bob', 'w1', 60_000)).toBe(1);
      await other.query('COMMIT');
      await other.end();
      await write;
      expect((await journal.plan('p'))?.status).toBe('failed');
    } finally {
      await journal.close();
    }
  });
});

describe('statements sent with the next one (their values written into the query)', () => {
  it('store every text as a parameter would, quotes, backslashes and placeholders included; a NUL is refused', async () => {
    const url = await cluster.database();
    const raw = await rawClient(url);
    try {
      await withJournal(url, async (journal) => {
        // Texts as a planner may send them, and the characters a literal must escape or a query could misread.
        const awkward = fc.oneof(
          fc.string({ unit: 'binary', maxLength: 40 }),
          fc.constantFrom("'", "''", '\\', "\\'", '?', '$1', "'); DROP TABLE intents; --", "E'x'", '\n\t'),
        );
        let n = 0;
        await fc.assert(
          fc.asyncProperty(
            awkward.filter((t) => !t.includes('\0')),
            awkward.filter((t) => !t.includes('\0')),
            async (source, goal) => {
              const id = `i${n++}`;
              // An intent is written with exec: held, then sent in the COMMIT's query.
              await journal.recordBatch([{ kind: 'intent', intent: { id, source, goal } }]);
              const { rows } = await raw.query<{ source: string; goal: string }>(
                'SELECT source, goal FROM intents WHERE id = $1',
                [id],
              );
              expect(rows).toEqual([{ source, goal }]);
            },
          ),
          { numRuns: 60 },
        );
        await expect(journal.recordBatch([{ kind: 'intent', intent: { id: 'nul', goal: 'a\0b' } }])).rejects.toThrow(
          'NUL character',
        );
        expect((await raw.query("SELECT id FROM intents WHERE id = 'nul'")).rows).toEqual([]);
      });
    } finally {
      await raw.end();
    }
  });
});

describe('a session the server ends as it becomes ready', () => {
  it('fails the write that was to use it, never the process, and the next write gets another', async () => {
    const url = await cluster.database();
    const proxy = await pgProxy(cluster.port);
    const journal = await PostgresJournal.open(url.replace(`:${cluster.port}/`, `:${proxy.port}/`));
    try {
      // The pool keeps one connection from opening; of two writes at once, the second needs a new one, whose
      // ReadyForQuery arrives with the server's FATAL in one chunk (a shutdown catching a session as it connects): the
      // client is handed out before it reads that error, with no one yet listening for it.
      proxy.endNextSessionAtReady();
      const writes = await Promise.allSettled([journal.addBot({ name: 'ann' }), journal.addBot({ name: 'bob' })]);
      expect(writes.map((w) => w.status).sort()).toEqual(['fulfilled', 'rejected']);
      await journal.addBot({ name: 'cy' });
      expect((await journal.listBots()).map((b) => b.name).length).toBeGreaterThanOrEqual(2);
    } finally {
      await journal.close();
      proxy.close();
    }
  });
});

describe("reading every plan's events while others write them", () => {
  it('never passes an event a still-open transaction may commit: the feed waits for it, then returns both in commit order', async () => {
    const url = await cluster.database();
    await withJournal(url, async (journal) => {
      await journal.recordEvent(event('early', 'e0'));
      const first = await journal.eventFeed(null, 100);
      expect(first.rows.map((r) => r.event)).toMatchObject([{ stepId: 'e0' }]);
      // A slow worker's transaction takes the next event id and has not committed yet…
      const slow = await rawClient(url);
      await slow.query('BEGIN');
      const { rows } = await slow.query<{ id: string }>(
        "INSERT INTO events (plan_id, type, at, body) VALUES ('slow', 'step.warning', 0, '{\"stepId\":\"e1\"}') RETURNING id",
      );
      // …while another commits a later one.
      await journal.recordEvent(event('fast', 'e2'));
      const later = (await journal.eventHistory('fast', { after: 0, limit: 10 })) ?? { rows: [] };
      expect(later.rows).toEqual([]);
      const all = await journal.eventFeed(first.cursor, 100);
      // Paging by id would return e2 now and step past e1 for good; the feed returns nothing yet.
      expect(all.rows).toEqual([]);
      expect(all.cursor).toBe(first.cursor);
      await slow.query('COMMIT');
      await slow.end();
      const after = await journal.eventFeed(all.cursor, 100);
      expect(after.rows.map((r) => [r.planId, (r.event as { stepId: string }).stepId])).toEqual([
        ['slow', 'e1'],
        ['fast', 'e2'],
      ]);
      expect(after.rows[0]!.id).toBe(Number(rows[0]!.id));
      expect(after.rows[0]!.id).toBeLessThan(after.rows[1]!.id);
      expect((await journal.eventFeed(after.cursor, 100)).rows).toEqual([]);
    });
  });
});

describe('the commands on a PostgreSQL journal', () => {
  it('run journals the plan there; runs, show, health check and incidents read it back', async () => {
    const url = await cluster.database();
    const planFile = join(dirname(tempJournalPath()), 'plan.json');
    writeFileSync(
      planFile,
      JSON.stringify({
        planId: 'pg-plan',
        intentId: 'i',
        steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
      }),
    );
    const scenario = join(dirname(planFile), 'scenario.json');
    writeFileSync(scenario, JSON.stringify({ name: 'logs', bot: { inventory: { oak_log: 1 } } }));
    const run = await cli('run', planFile, '--world', 'sim', '--scenario', scenario, '--journal', url);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`journal: ${url}`);
    const runs = await cli('runs', '--journal', url);
    expect(runs.out).toMatch(/│ 1\s+│ pg-plan\s+│ succeeded\s+│ 1\/1/);
    const show = await cli('show', 'pg-plan', '--journal', url);
    expect(show.out).toMatch(/• planks {2}craft_item@1\.0\.0 {2}succeeded/);
    const health = await cli('health', 'check', '--journal', url, '--json');
    expect(health.code, health.err).toBe(0);
    expect(JSON.parse(health.out)).toMatchObject({ status: 'healthy', findings: [] });
    expect((await cli('incidents', '--journal', url)).out).toBe('no incidents\n');
  });

  it("takes the journal's URL from the project config, as it takes a path", async () => {
    const url = await cluster.database();
    const config = CONFIG.replace('world:', `journal: '${url}',\n  world:`);
    const { dir, sub } = await userProject({ 'verbtree.config.mjs': config });
    const run = await cliIn(sub, 'run', join(dir, 'plans/greet.plan.json'), '--journal');
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`journal: ${url}`);
    const runs = await cliIn(sub, 'runs', '--json');
    expect(JSON.parse(runs.out)).toMatchObject([{ plan_id: 'greet', ok: 1 }]);
  });

  it('a run killed mid-step is recovered and resumed from the PostgreSQL journal', async () => {
    const url = await cluster.database();
    const dir = dirname(tempJournalPath());
    const plan = {
      planId: 'pg-crash',
      intentId: 'i',
      steps: [
        { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: 'pg-planks' },
        { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 4, y: 5, z: 0 } } },
      ],
    };
    writeFileSync(join(dir, 'crash.plan.json'), JSON.stringify(plan));
    writeFileSync(join(dir, 'crash.scenario.json'), JSON.stringify({ name: 'c', bot: { inventory: { oak_log: 1 } } }));
    const args = [
      'run',
      join(dir, 'crash.plan.json'),
      '--world',
      'sim',
      '--scenario',
      join(dir, 'crash.scenario.json'),
    ];
    const runner = cliProcess([...args, '--journal', url, '--json', '--fault', 'navigate=hang']);
    const ended = finished(runner);
    await untilEvent(runner, (e) => e.type === 'attempt.started' && e.stepId === 'walk');
    const journal = await openJournal(url, { mustExist: true });
    try {
      // The walk hangs; once the journal holds it in progress, the process is killed.
      const walking = async () => (await stepFields(journal, 'pg-crash', 'status'))[1]?.status === 'in_progress';
      for (let polls = 0; polls < 1_000 && !(await walking()); polls++);
      expect(await walking()).toBe(true);
      runner.kill('SIGKILL');
      expect((await ended).signal).toBe('SIGKILL');
      const resumed = await cli('run', '--resume', 'pg-crash', '--journal', url);
      expect(resumed.code, resumed.out + resumed.err).toBe(0);
      expect(resumed.out).toContain('journal: orphaned_step');
      expect(resumed.out).toContain('resuming plan pg-crash: done planks; skipped –; to run walk');
      const provenance = (await journal.planProvenance('pg-crash'))!;
      expect(provenance.plan.status).toBe('succeeded');
      expect(provenance.steps.map((s) => [s.step.step_id, s.step.status])).toEqual([
        ['planks', 'succeeded'],
        ['walk', 'succeeded'],
      ]);
      const actions = provenance.steps.flatMap((s) => s.attempts.flatMap((a) => a.actions));
      expect(actions.filter((a) => a.command === 'craft')).toHaveLength(1);
    } finally {
      await journal.close();
    }
  }, 60_000);

  it('the HTTP API serves a PostgreSQL journal: a plan posted and waited for, then its run, events and health', async () => {
    const url = await cluster.database();
    await withJournal(url, async (journal) => {
      const registry = createDefaultRegistry();
      const world = SimWorld.create({ clock: systemClock, inventory: { oak_log: 1 } });
      const assembly = await assembleJournaled({ registry, world, clock: systemClock, journal, kind: 'serve' });
      const api = createApiServer({
        journal,
        journalPath: journal.location,
        registry,
        token: 't',
        bots: [apiBot('pg', assembly)],
      });
      const { url: base } = await api.listen(0);
      try {
        const plan = {
          planId: 'api-plan',
          intentId: 'i',
          steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
        };
        const posted = await fetch(`${base}/api/cognitive/execute?wait=true`, {
          method: 'POST',
          body: JSON.stringify(plan),
          headers: { authorization: 'Bearer t' },
        });
        expect(posted.status).toBe(200);
        await assembly.recorder.flush();
        const run = (await (await fetch(`${base}/api/runs/api-plan`)).json()) as {
          provenance: { plan: { status: string } };
        };
        expect(run.provenance.plan.status).toBe('succeeded');
        const events = (await (await fetch(`${base}/api/runs/api-plan/events`)).json()) as {
          events: { type: string }[];
        };
        expect(events.events.map((e) => e.type)).toContain('plan.ended');
        const health = (await (await fetch(`${base}/api/health`)).json()) as {
          journal: string;
          health: { status: string };
        };
        expect(health).toMatchObject({ journal: url, health: { status: 'healthy' } });
        const runs = (await (await fetch(`${base}/api/runs`)).json()) as { runs: { plan_id: string }[] };
        expect(runs.runs.map((r) => r.plan_id)).toEqual(['api-plan']);
      } finally {
        await api.close();
        await assembly.close();
      }
    });
  });
});

describe('a PostgreSQL journal that stops mid-run', () => {
  it('the step about to act ends journal_unavailable without acting, and no further step starts', async () => {
    // A cluster of its own: this test stops it (pg_ctl stop -m immediate, as a crash of the database would).
    const own = await startPostgres();
    try {
      const journal = await openJournal(await own.database());
      const world = SimWorld.create({ clock: systemClock, inventory: { oak_log: 1 } });
      const acted: string[] = [];
      const craft = world.craft.bind(world);
      world.craft = (...args) => {
        acted.push('craft');
        return craft(...args);
      };
      const goto = world.goto.bind(world);
      world.goto = (...args) => {
        acted.push('goto');
        return goto(...args);
      };
      const registry = createDefaultRegistry();
      const assembly = await assembleJournaled({ registry, world, clock: systemClock, journal, kind: 'test' });
      // Once the walk's end is durable and planks is announced, the database goes away.
      assembly.executor.events.on('event', (event) => {
        if (event.type === 'step.started' && event.stepId === 'planks') own.stop();
      });
      const result = await (await assembly.run(walkCraftBack('outage'))).result;
      expect(result).toMatchObject({ ok: false, code: 'journal_unavailable' });
      expect(result.steps.map((r) => [r.step.stepId, r.outcome.ok || r.outcome.code])).toEqual([
        ['walk', true],
        ['planks', 'journal_unavailable'],
      ]);
      expect(result.steps[1]!.outcome).toMatchObject({
        detail: match.stringMatching(
          /^the journal could not record attempt 1 of planks durably \(.+\): the step did not act$/,
        ),
      });
      expect(acted.filter((command) => command !== 'goto')).toEqual([]);
      expect(world.inventory()).toEqual({ oak_log: 1 });
      // The runner's own last write (stopped) cannot land either.
      await assembly.close().catch(() => undefined);
      await journal.close();
    } finally {
      own.stop();
    }
  }, 60_000);
});
