import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/contract/route-table.js';
import { WAITING_FOR_HEADROOM, type BotView } from '../../src/journal/rows.js';
import { QUEUED, botSample, emptyModel } from '../../src/monitor/app/model.js';
import { fleetSample } from '../../src/operations/fleet-bots.js';

/*
 * The class behind issue 34 §1's surfaces: whatever a fleet bot's row holds, the sample the operations make of it is
 * what GET /api/bots declares (the OpenAPI contract a client is generated from), and the monitor shows the bot as
 * queued exactly when its plan waits for a worker.
 */

const time = fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 });
const planId = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
const botView: fc.Arbitrary<BotView> = fc
  .record({
    name: fc.constantFrom('ann', 'bob'),
    addedAt: time,
    holder: fc.option(fc.constantFrom('w1', 'w2')),
    epoch: fc.nat(5),
    expiresAt: fc.option(time),
    claimedAt: fc.option(time),
    held: fc.boolean(),
    plan: fc.option(planId),
    planSince: fc.option(time),
    queued: fc.nat(3),
    nextQueued: fc.option(fc.record({ planId, queuedAt: time })),
    status: fc.option(
      fc.record({
        connected: fc.boolean(),
        state: fc.constantFrom('IDLE', 'EXECUTING', 'PAUSED', WAITING_FOR_HEADROOM),
        kind: fc.constantFrom('sim', 'mineflayer'),
        position: fc.option(
          fc.record({ x: fc.double({ noNaN: true, noDefaultInfinity: true }), y: fc.nat(), z: fc.nat() }),
        ),
        health: fc.option(fc.nat(20)),
        food: fc.option(fc.nat(20)),
        reportedAt: time,
      }),
    ),
  })
  // The journal's invariants: a queued plan is counted, and a plan has a time.
  .map((view) => ({
    ...view,
    settings: null,
    queued: view.nextQueued === null ? 0 : Math.max(1, view.queued),
    planSince: view.plan === null ? null : (view.planSince ?? view.addedAt),
  }));

const waitsForWorker = (view: BotView) =>
  (view.plan !== null || view.nextQueued !== null) && (!view.held || view.status?.state === WAITING_FOR_HEADROOM);

describe('a fleet bot as GET /api/bots answers it', () => {
  it("parses with the route's own schema, and waits (queued, why, since when) exactly when no worker starts its plan", () => {
    const schema = ROUTES.bots.responses[200].schema!;
    fc.assert(
      fc.property(botView, fc.option(fc.constant('/viewer/ann/')), (view, viewer) => {
        const sample = { ...fleetSample(view), viewer };
        const parsed = schema.safeParse({ success: true, bots: [sample] });
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
        // The schema declares the fields: a wait given in words only (as the answer once had it) is not the contract.
        const inWordsOnly = { ...sample, waiting: 'queued: no worker holds the bot' };
        expect(schema.safeParse({ success: true, bots: [inWordsOnly] }).success).toBe(false);
        expect(sample.waiting !== null).toBe(waitsForWorker(view));
        if (sample.waiting === null) return;
        expect(sample.waiting.planId).toBe(view.plan ?? view.nextQueued!.planId);
        expect(sample.waiting.reason).toBe(view.held ? 'no_headroom' : 'no_holder');
        expect(sample.waiting.since).toBeGreaterThanOrEqual(view.planSince ?? view.nextQueued!.queuedAt);
      }),
    );
  });

  it('is shown by the monitor as QUEUED with its wait while it waits, and as its reported state once a worker has it', () => {
    fc.assert(
      fc.property(fc.array(botView, { minLength: 1, maxLength: 4 }), (views) => {
        const model = emptyModel('ann');
        for (const view of views) {
          const sample = fleetSample(view);
          botSample(model, { ...sample });
          expect(model.bot.waiting).toEqual(sample.waiting ?? undefined);
          if (sample.waiting) expect(model.agent).toBe(QUEUED);
          else if (sample.state !== null) expect(model.agent).toBe(sample.state);
          else expect(model.agent).not.toBe(QUEUED);
        }
      }),
    );
  });
});
