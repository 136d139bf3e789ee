import pg from 'pg';
import type { Op } from '../sql/tx.js';

/*
 * The statements a PostgreSQL transaction sends together as one simple query (BEGIN, every `exec` and `later` held
 * for the next statement whose answer is awaited, or for the COMMIT), their values written into the text.
 */

/** A statement held for the transaction's next query; a `later` one keeps its op, to be told its first row. */
export interface Held {
  text: string;
  op?: Op;
}

/** The held statements as one simple query; each `later` one told its row; the last statement's result. */
export async function sendHeld(client: pg.PoolClient, held: readonly Held[]): Promise<pg.QueryResult> {
  const sent = (await client.query(held.map((h) => h.text).join(';\n'))) as pg.QueryResult | pg.QueryResult[];
  const results = Array.isArray(sent) ? sent : [sent];
  held.forEach(({ op }, i) => op && answer(op, results[i]!));
  return results.at(-1)!;
}

/** What the logic receives for a statement: its rows, its first row, or the rows it changed (a `later`'s: told). */
export function answer(op: Op, result: pg.QueryResult): unknown {
  if (op.kind === 'all') return result.rows;
  if (op.kind === 'get') return result.rows[0];
  if (op.kind === 'later') return op.answer.set(result.rows[0]);
  return result.rowCount ?? 0;
}

/**
 * The statement with its parameters written in as quoted literals, for a simple query (which takes no parameters).
 * A quoted literal is of unknown type until its context gives it one, as a parameter is, so a number goes quoted too.
 */
export function inline(op: Op): string {
  let next = 0;
  const text = op.sql.replace(/\?/g, () => {
    if (next >= op.params.length) throw new Error(`a statement has more placeholders than parameters: ${op.sql}`);
    const value = op.params[next++];
    if (value === null || value === undefined) return 'NULL';
    const text = String(value);
    // As a parameter it would be refused (PostgreSQL's text holds no NUL); in a query's text it would end the query.
    if (text.includes('\0')) throw new Error('a value holds a NUL character, which PostgreSQL text cannot hold');
    return pg.escapeLiteral(text);
  });
  if (next !== op.params.length) throw new Error(`a statement has fewer placeholders than parameters: ${op.sql}`);
  return text;
}
