/** Every bot the server drives, each folded into its own model; the stream names a message's bot in its `bot` field. */
import { apply, botSample, emptyModel, journaledTree, type Model, type NodeRow } from './model.js';

type Message = Record<string, unknown> & { type?: string };

export interface Fleet {
  connected: boolean;
  status: string;
  /** The bots in the server's order (the first answers requests that name none). */
  order: string[];
  bots: Map<string, Model>;
  /** Bots being caught up from the journal: their stream messages wait here until it is read. */
  waiting: Map<string, Message[]>;
}

export function emptyFleet(): Fleet {
  return { connected: false, status: 'connecting…', order: [], bots: new Map(), waiting: new Map() };
}

function botOf(fleet: Fleet, name: string): Model {
  let model = fleet.bots.get(name);
  if (!model) {
    model = emptyModel(name);
    fleet.bots.set(name, model);
    fleet.order.push(name);
  }
  return model;
}

/** A bot whose plan began before this page connected: the journal holds what the stream did not bring. */
export interface CatchUp {
  bot: string;
  plan: string;
}

/**
 * Applies one stream message; returns the bots to catch up from the journal (on `hello`), whose messages wait till
 * then.
 */
export function applyFleet(fleet: Fleet, message: Message): CatchUp[] {
  if (message.type === 'hello' || message.type === 'bots.state') {
    const catchUps: CatchUp[] = [];
    for (const sample of (message.bots as Message[] | undefined) ?? []) {
      const name = String(sample.bot);
      botSample(botOf(fleet, name), sample);
      if (message.type === 'hello' && typeof sample.plan === 'string') {
        fleet.waiting.set(name, []);
        catchUps.push({ bot: name, plan: sample.plan });
      }
    }
    return catchUps;
  }
  if (message.type === 'nodes') {
    // One batch carries every bot's runs that changed in its window.
    const byBot = new Map<string, unknown[]>();
    for (const run of (message.runs as { bot?: string }[] | undefined) ?? []) {
      const name = run.bot ?? fleet.order[0];
      if (name !== undefined) byBot.set(name, [...(byBot.get(name) ?? []), run]);
    }
    for (const [name, runs] of byBot) toBot(fleet, name, { ...message, runs });
    return [];
  }
  const name = typeof message.bot === 'string' ? message.bot : fleet.order[0];
  if (name !== undefined) toBot(fleet, name, message);
  return [];
}

function toBot(fleet: Fleet, name: string, message: Message): void {
  const waiting = fleet.waiting.get(name);
  if (waiting) waiting.push(message);
  else apply(botOf(fleet, name), message);
}

const sameEvent = (m: Message) => `${m.type}|${m.at as number}|${(m.stepId as string | undefined) ?? ''}`;

/**
 * The bot's plan as journaled up to now (its events, and its last step's tree), then what the stream brought
 * while it was read: an event in both (journaled and streamed after the page connected) is applied once.
 */
export function caughtUp(fleet: Fleet, name: string, journaled: { events: Message[]; nodes: NodeRow[] }): void {
  const waiting = fleet.waiting.get(name) ?? [];
  fleet.waiting.delete(name);
  const streamed = new Set(waiting.map(sameEvent));
  const model = botOf(fleet, name);
  for (const event of journaled.events) if (!streamed.has(sameEvent(event))) apply(model, event);
  journaledTree(model, journaled.nodes);
  for (const message of waiting) apply(model, message);
}
