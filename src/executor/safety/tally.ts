import { countByKind } from './observation.js';

/**
 * What the safety layer met and did while one step ran: the hostiles it answered (by id, so a zombie met five times
 * counts once), the mobs its fights killed. A step that ends because its threats keep returning names them with it:
 * "4 zombies kept returning; 2 killed; health 9 of 20".
 */
export class DefenseTally {
  private readonly steps = new Map<string, { seen: Map<number, string>; killed: string[] }>();

  private of(stepId: string) {
    let entry = this.steps.get(stepId);
    if (!entry) this.steps.set(stepId, (entry = { seen: new Map(), killed: [] }));
    return entry;
  }

  /** Drops the step's tally: called as the step ends. */
  forget(stepId: string): void {
    this.steps.delete(stepId);
  }

  met(stepId: string, hostiles: readonly { id: number; name: string }[]): void {
    const { seen } = this.of(stepId);
    for (const { id, name } of hostiles) seen.set(id, name);
  }

  killed(stepId: string, name: string): void {
    this.of(stepId).killed.push(name);
  }

  /** "4 zombies and a skeleton kept returning; 2 killed; health 9 of 20", or null when nothing was met. */
  describe(stepId: string, health: number): string | null {
    const entry = this.steps.get(stepId);
    if (!entry || entry.seen.size === 0) return null;
    const who = countByKind([...entry.seen.values()].map((name) => ({ name })));
    return `${who} kept returning; ${entry.killed.length} killed; health ${Math.round(health)} of 20`;
  }
}
