import { Option } from 'commander';
import { DEFAULT_JOURNAL_PATH, JournalOpenError, type Journal } from '../../journal/journal.js';
import { openJournal } from '../../journal/open.js';
import { CliUsageError } from '../io.js';

export function journalOption(): Option {
  return new Option('--journal <path or url>', 'the run journal: a SQLite file, or a postgres:// URL').default(
    DEFAULT_JOURNAL_PATH,
  );
}

/**
 * Opens the journal a command uses; a missing file (for a reading command) or an unreachable database is a usage
 * error naming the journal and the fix.
 */
export async function openJournalFor(spec: string, options: { create?: boolean } = {}): Promise<Journal> {
  try {
    return await openJournal(spec, { mustExist: options.create !== true });
  } catch (error) {
    if (error instanceof JournalOpenError) throw new CliUsageError(error.message);
    throw error;
  }
}

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "7d", "12h", "30m", "45s", "500ms" in milliseconds. */
export function parseDuration(value: string, flag: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(value.trim());
  if (!match) throw new CliUsageError(`${flag} must be a duration such as 7d, 12h, 30m or 45s, got "${value}"`);
  return Number(match[1]) * UNITS[match[2]!]!;
}

export function positiveInt(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0)
      throw new CliUsageError(`${flag} must be a whole number above 0, got "${value}"`);
    return n;
  };
}

/** Local wall time to the second, as operators read logs. */
export function formatTime(ms: number | null): string {
  if (ms === null) return '–';
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
