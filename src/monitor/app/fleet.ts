/** Every bot the server drives, each folded into its own model; the stream names a message's bot in its `bot` field. */
import { apply, botSample, emptyModel, type Model } from './model.js';

export interface Fleet {
  connected: boolean;
  status: string;
  /** The bots in the server's order (the first answers requests that name none). */
  order: string[];
  bots: Map<string, Model>;
}

export function emptyFleet(): Fleet {
  return { connected: false, status: 'connecting…', order: [], bots: new Map() };
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

type Message = Record<string, unknown> & { type?: string };

export function applyFleet(fleet: Fleet, message: Message): void {
  if (message.type === 'hello' || message.type === 'bots.state') {
    for (const sample of (message.bots as Message[] | undefined) ?? []) botSample(botOf(fleet, String(sample.bot)), sample);
    return;
  }
  if (message.type === 'nodes') {
    // One batch carries every bot's runs that changed in its window.
    const byBot = new Map<string, unknown[]>();
    for (const run of (message.runs as { bot?: string }[] | undefined) ?? []) {
      const name = run.bot ?? fleet.order[0];
      if (name !== undefined) byBot.set(name, [...(byBot.get(name) ?? []), run]);
    }
    for (const [name, runs] of byBot) apply(botOf(fleet, name), { ...message, runs });
    return;
  }
  const name = typeof message.bot === 'string' ? message.bot : fleet.order[0];
  if (name !== undefined) apply(botOf(fleet, name), message);
}
