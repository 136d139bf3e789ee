import type { Clock } from '../contracts/clock.js';
import type { PlannerReply } from './planner.js';
import { describe, errorText } from './user-code.js';

export type PlannerAnswer<T> = { ok: true; value: T } | { ok: false; detail: string };

/**
 * Calls planner code (user code) so that it cannot break the contract: a
 * throw, a rejection or no answer within `limitMs` of the clock is an answer
 * too, which the escalation turns into an explicit `planner_error`.
 */
export function callPlanner<T>(
  clock: Clock,
  what: string,
  limitMs: number,
  call: () => Promise<T>,
): Promise<PlannerAnswer<T>> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: PlannerAnswer<T>) => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      resolve(answer);
    };
    const timer = clock.setTimeout(
      () => settle({ ok: false, detail: `${what} did not answer within ${limitMs} ms` }),
      limitMs,
    );
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(call());
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => settle({ ok: true, value }),
      (error: unknown) => settle({ ok: false, detail: `${what} threw: ${errorText(error)}` }),
    );
  });
}

/** A reply is `{ steps: [...] }` or `{ giveUp: "why" }`; anything else is the planner's error, named. */
export function checkReply(what: string, reply: unknown): PlannerAnswer<PlannerReply> {
  if (reply && typeof reply === 'object') {
    if (typeof (reply as { giveUp?: unknown }).giveUp === 'string') return { ok: true, value: reply as PlannerReply };
    if (Array.isArray((reply as { steps?: unknown }).steps)) return { ok: true, value: reply as PlannerReply };
  }
  return {
    ok: false,
    detail: `${what} answered ${describe(reply)}; it must answer { steps: [...] } or { giveUp: "why" }`,
  };
}
