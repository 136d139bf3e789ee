import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster for one test file: initdb and pg_ctl (Debian's, in /usr/lib/postgresql/<v>/bin) in
 * a temporary folder, listening on a free loopback port with its unix socket in that folder, fsync off. As root,
 * both run as the `postgres` user (initdb refuses root), in a folder that user owns. `database()` makes a fresh
 * database per test; `stop()` stops the cluster and removes the folder (also when the test process exits early).
 */
export interface PostgresCluster {
  port: number;
  /** The URL of a database of this cluster (default: the `postgres` maintenance database). */
  url(database?: string): string;
  /** A new, empty database; its URL. */
  database(): Promise<string>;
  stop(): void;
  /** Restarts the server as an operator would (pg_ctl stop -m fast, then start, same port and data): `down` runs between. */
  restart(down?: () => Promise<void>): Promise<void>;
}

/** The folder holding initdb and pg_ctl: the newest Debian version, else whatever the PATH finds. */
export function postgresBin(): string {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  try {
    return execFileSync('sh', ['-c', 'dirname "$(command -v initdb)"'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      "the PostgreSQL tests start their own cluster and need initdb and pg_ctl: install Debian's postgresql (apt-get install postgresql; .ci/run does it as root)",
    );
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Where the test run keeps a cluster's data folder fresh from initdb, to copy (test/helpers/postgres-template.ts). */
export const TEMPLATE_ENV = 'VERBTREE_PG_TEMPLATE';

/**
 * A fresh cluster's data folder at `data`: a copy of the run's template when there is one (initdb takes seconds, most
 * of a cluster's start, and a copy of its result is the same cluster), else `initdb`'s own, then kept as the template.
 * Two files racing to keep theirs both run initdb, as without a template; the first rename wins.
 */
function freshDataFolder(data: string, initdb: () => void): void {
  const template = process.env[TEMPLATE_ENV];
  // cp -a keeps the owner (the postgres user, when run as root) and the 0700 mode PostgreSQL insists on.
  const copy = (from: string, to: string) => execFileSync('cp', ['-a', from, to], { stdio: 'pipe' });
  if (template && existsSync(template)) return void copy(template, data);
  initdb();
  if (!template) return;
  const kept = `${template}.${process.pid}`;
  copy(data, kept);
  try {
    renameSync(kept, template);
  } catch {
    rmSync(kept, { recursive: true, force: true });
  }
}

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBin();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'verbtree-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  const as = (command: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, command), args, { stdio: 'pipe' });
  const data = join(dir, 'data');
  freshDataFolder(data, () =>
    as('initdb', [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]),
  );
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  const start = () => as('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', settings, '-w', 'start']);
  start();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    try {
      as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  process.on('exit', stop);
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let databases = 0;
  return {
    port,
    url,
    async database() {
      const name = `t${++databases}`;
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    stop,
    async restart(down) {
      as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      try {
        await down?.();
      } finally {
        start();
      }
    },
  };
}

/**
 * A connection of its own to a test database, for what no journal operation does: holding a transaction open as a
 * slow worker would, or planting a newer schema's version. Closed by the caller.
 */
export async function rawClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // A test that fails while holding it open leaves it to the cluster's stop: that is no error of the test's.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}
