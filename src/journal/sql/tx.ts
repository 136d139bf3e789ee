/**
 * The journal's domain logic is written once, as generator functions that yield SQL statements and receive their
 * results; each backend drives them inside one of its transactions. better-sqlite3 drives them synchronously (so a
 * SQLite write is on disk when its method returns, as before), node-postgres asynchronously, a round trip per
 * statement whose answer the logic needs. The SQL they yield is the portable subset both engines run the same way: `?` placeholders (numbered for
 * PostgreSQL by its driver), `ON CONFLICT`, `RETURNING`, and `verbtree_now()` for the journal's wall clock (the
 * injectable clock's on SQLite, the database server's on PostgreSQL, so times written by workers on several machines
 * compare). A statement whose answer is not needed is yielded with `exec`: PostgreSQL sends those with the next
 * statement that needs an answer.
 */

export type Param = string | number | null;

export type Op =
  | { kind: 'all'; sql: string; params: readonly Param[] }
  | { kind: 'get'; sql: string; params: readonly Param[] }
  | { kind: 'run'; sql: string; params: readonly Param[] }
  | { kind: 'exec'; sql: string; params: readonly Param[] }
  | { kind: 'later'; sql: string; params: readonly Param[]; answer: Later<unknown> };

/**
 * An answer the logic hands to its caller without reading it (an inserted row's id): there once the transaction has
 * committed, read with `settled`.
 */
export class Later<T> {
  private known = false;
  private answer: T | undefined;

  constructor(private readonly convert: (row: unknown) => T) {}

  /** The backend's part: the statement's first row (undefined for none). */
  set(row: unknown): void {
    this.answer = this.convert(row);
    this.known = true;
  }

  get value(): T {
    if (!this.known) throw new Error('a journal answer was read before its statement was sent');
    return this.answer as T;
  }
}

/** A piece of journal logic: statements out, their results in, `R` at the end. */
export type Tx<R> = Generator<Op, R, unknown>;

/** Every row the statement returns. */
export function* all<T>(sql: string, ...params: Param[]): Tx<T[]> {
  return (yield { kind: 'all', sql, params }) as T[];
}

/** The first row, or undefined. */
export function* get<T>(sql: string, ...params: Param[]): Tx<T | undefined> {
  return (yield { kind: 'get', sql, params }) as T | undefined;
}

/** Runs a statement that returns no rows; the number of rows it changed. */
export function* run(sql: string, ...params: Param[]): Tx<number> {
  return (yield { kind: 'run', sql, params }) as number;
}

/**
 * A statement whose answer the logic does not need. A backend may hold it back and send it with the next statement
 * whose answer is needed (or with the commit), in order, in the same transaction: PostgreSQL does, so a run of
 * writes costs one round trip, not one each. Its failure surfaces there, and the transaction fails as a whole.
 */
export function* exec(sql: string, ...params: Param[]): Tx<void> {
  yield { kind: 'exec', sql, params };
}

/**
 * A statement whose first row only the caller reads, once the transaction has committed: like `exec`, PostgreSQL
 * sends it with the next statement whose answer is needed, or with the COMMIT, instead of a round trip of its own.
 */
export function* later<T>(convert: (row: unknown) => T, sql: string, ...params: Param[]): Tx<Later<T>> {
  const answer = new Later(convert);
  yield { kind: 'later', sql, params, answer };
  return answer;
}

/** A committed transaction's answer with a Later read (anything else as it is). */
export function settled(value: unknown): unknown {
  return value instanceof Later ? (value as Later<unknown>).value : value;
}

/** A count as both engines return it (PostgreSQL's bigint arrives as a number: the driver parses it). */
export function* count(sql: string, ...params: Param[]): Tx<number> {
  const row = yield* get<{ n: number }>(sql, ...params);
  return Number(row?.n ?? 0);
}

/** The journal's wall clock now, as the database sees it. */
export function* dbNow(): Tx<number> {
  return Number((yield* get<{ now: number }>('SELECT verbtree_now() AS now'))!.now);
}

/** Drives a piece of logic to its end with a synchronous executor (better-sqlite3). */
export function driveSync<R>(tx: Tx<R>, execute: (op: Op) => unknown): R {
  let step = tx.next();
  while (!step.done) step = tx.next(execute(step.value));
  return step.value;
}

/** Drives a piece of logic to its end with an asynchronous executor (node-postgres). */
export async function driveAsync<R>(tx: Tx<R>, execute: (op: Op) => Promise<unknown>): Promise<R> {
  let step = tx.next();
  while (!step.done) step = tx.next(await execute(step.value));
  return step.value;
}

/** JSON text for a column, null for nothing. */
export function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
