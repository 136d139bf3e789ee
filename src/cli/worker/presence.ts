import type { Clock } from '../../contracts/clock.js';
import type { BotReport, Fence } from '../../journal/rows.js';
import type { Rejoining } from '../../world/mineflayer/rejoining-world.js';
import { wallTimeOf } from './outage.js';
import { awaySpell, type AwaySpell } from './stay-joined.js';

/**
 * Where a held bot stands with its game server, for its report and its worker's outage: waiting for a first join the
 * server refuses (a spell away under the away limit, as a lost session's is), on the server, or away from it.
 */
export class BotPresence {
  /** What the bot waits for before its first join (its server away), and the away limit's spell over that wait. */
  private waitingFor: { status: string; spell: AwaySpell } | null = null;
  private rejoining: Rejoining | null = null;

  constructor(
    private readonly fence: Fence,
    private readonly deps: { clock: Clock; awayLimitMs: number; tooLong: (awayMs: number) => void },
  ) {}

  /**
   * The first join's status (joinAsBot's `waiting`): a server away from the start arms the away limit as a lost
   * session does (stayJoined), and joining (null) disarms it.
   */
  waiting(status: string | null): void {
    const { clock, awayLimitMs, tooLong } = this.deps;
    if (status === null) {
      this.waitingFor?.spell.end();
      this.waitingFor = null;
    } else if (this.waitingFor) this.waitingFor.status = status;
    else this.waitingFor = { status, spell: awaySpell(clock, clock.now(), awayLimitMs, tooLong) };
  }

  /** The bot joined: `rejoining` keeps its session from now on, and says when it is away. */
  joined(rejoining: Rejoining): void {
    this.rejoining = rejoining;
  }

  /** The bot is given up: a first join's limit no longer runs. */
  end(): void {
    this.waitingFor?.spell.end();
  }

  /**
   * Since when (epoch ms) the bot is away from the server: its session lost, or its first join waiting for a server
   * that refuses it; null while it is on it (or joining one that answers).
   */
  disconnectedSince(): number | null {
    const away = this.rejoining?.disconnectedSince ?? this.waitingFor?.spell.since ?? null;
    return away === null ? null : wallTimeOf(this.deps.clock, away);
  }

  /**
   * The report of a bot off its server (waiting for its first join, or away since when), saying nothing of where it
   * stood, which only a live session knows; null while it is on it, or joining one that answers.
   */
  awayReport(kind: string): BotReport | null {
    const away = this.disconnectedSince();
    if (away === null) return null;
    const since = new Date(away).toISOString();
    const state = this.rejoining ? `disconnected since ${since}` : `${this.waitingFor!.status} since ${since}`;
    const { bot, epoch } = this.fence;
    return { bot, epoch, connected: false, position: null, health: null, food: null, state, kind };
  }
}
