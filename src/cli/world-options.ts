import { type Command, Option } from 'commander';
import { CliUsageError } from './io.js';
import type { WorldChoice } from './open-world.js';
import { isWorldKind, kindsReading, worldKind, WORLD_KINDS, WORLDS, type WorldKind } from './worlds.js';
import type { WorldField, WorldSettings } from './worlds/kind.js';

/*
 * The table of worlds on the command line: a command names the settings it offers, and `--world`, their options,
 * their checks and the help's "Worlds" section come from the table's rows.
 */

type Setting = keyof WorldSettings;

interface OptionSpec {
  flag: string;
  description: string;
  parse?: (flag: string) => (value: string) => unknown;
  default?: unknown;
}

const wholeNumber = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new CliUsageError(`${flag} must be a whole number, got "${value}"`);
  return n;
};

const serverPort = (flag: string) => (value: string) => {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new CliUsageError(`${flag} must be a whole number from 1 to 65535, got "${value}"`);
  return port;
};

/** The usual option of each setting; a command whose flag means something else gives its own (`own`). */
const OPTIONS: Record<Setting, OptionSpec> = {
  host: { flag: '--host <host>', description: 'the Minecraft server to connect to' },
  port: { flag: '--port <port>', description: "the Minecraft server's port", parse: serverPort, default: 25565 },
  username: { flag: '--username <name>', description: "the bot's name", default: 'verbtree' },
  version: { flag: '--version <mc-version>', description: 'the Minecraft version to speak', default: '1.21.4' },
  auth: {
    flag: '--auth <mode>',
    description: "how the bot logs in: offline, or microsoft (mineflayer's own login, for online-mode servers)",
    parse: (flag) => (value: string) => {
      if (value !== 'offline' && value !== 'microsoft')
        throw new CliUsageError(`${flag} must be offline or microsoft, got "${value}"`);
      return value;
    },
  },
  isolate: {
    flag: '--isolate',
    description: 'run the embedded server in a child process, so a server crash cannot take the executor down',
  },
  scenario: {
    flag: '--scenario <file>',
    description: 'a scenario file laying out the world first (examples/scenarios/)',
  },
  worldFolder: {
    flag: '--world-folder <dir>',
    description: 'keep the embedded world in this folder (reopened as it is if a verbtree run made it)',
    parse: () => (path: string) => ({ path, mode: 'keep' as const }),
  },
  seed: {
    flag: '--seed <n>',
    description: 'seed for the simulated world and retry jitter',
    parse: wholeNumber,
    default: 1,
  },
};

/** What a command takes of the table of worlds. */
export interface CommandWorlds {
  /** The world when neither the command line nor the project config names one. */
  default: string;
  /** The settings its user may give, in the order its help lists them (the seed always comes last). */
  settings: readonly WorldField[];
  /** A flag or help of its own for a setting, where the usual flag means something else to this command. */
  own?: Partial<Record<Setting, Partial<Pick<OptionSpec, 'flag' | 'description'>>>>;
  /** Choices of `--world` beside the table's kinds, each with its line of help (serve's none). */
  beside?: Record<string, string>;
}

/** The options each command made for the world settings, so its choice and the config's defaults can find them. */
const offered = new WeakMap<Command, Map<Setting, Option>>();

/** Adds `--world` and the options of the settings the command offers, and the help's "Worlds" section. */
export function addWorldOptions(command: Command, worlds: CommandWorlds): Command {
  const kinds = [...WORLDS.map((row) => row.kind), ...Object.keys(worlds.beside ?? {})];
  command.addOption(
    new Option('--world <kind>', 'the world to act in (see Worlds below)').choices(kinds).default(worlds.default),
  );
  const options = new Map<Setting, Option>();
  for (const setting of [...worlds.settings, 'seed'] as const) {
    const spec = { ...OPTIONS[setting], ...worlds.own?.[setting] };
    const chooses = WORLDS.find((row) => row.chosenBy === setting);
    const option = new Option(spec.flag, `${spec.description}${chooses ? ` (implies --world ${chooses.kind})` : ''}`);
    if (spec.parse) option.argParser(spec.parse(option.long!));
    if (spec.default !== undefined) option.default(spec.default);
    command.addOption(option);
    options.set(setting, option);
  }
  offered.set(command, options);
  return command.addHelpText('after', () => worldsHelp(options, worlds.beside ?? {}));
}

function worldsHelp(options: Map<Setting, Option>, beside: Record<string, string>): string {
  const width = Math.max(...WORLDS.map((row) => row.kind.length), ...Object.keys(beside).map((k) => k.length));
  const lines = WORLDS.map((row) => {
    const reads = row.reads.filter((field) => options.has(field)).map((field) => flagOf(options, field));
    const needs = new Set((row.needs ?? []).map((field) => flagOf(options, field)));
    const what = reads.map((flag) => (needs.has(flag) ? `${flag} (needed)` : flag)).join(', ');
    return `  ${row.kind.padEnd(width)}  ${row.summary}\n  ${' '.repeat(width)}  ${what ? `reads ${what}` : 'reads no option but the seed'}`;
  });
  for (const [kind, summary] of Object.entries(beside)) lines.push(`  ${kind.padEnd(width)}  ${summary}`);
  return `\nWorlds (--world):\n${lines.join('\n')}`;
}

/** The flag a command gives a setting (or the usual one, for a setting the command does not offer). */
const flagOf = (options: Map<Setting, Option>, setting: Setting) =>
  options.get(setting)?.long ?? OPTIONS[setting].flag.split(' ')[0]!;

const list = (words: readonly string[], conjunction = 'and') =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;

/**
 * The world a command's options choose, checked against its row: null for a choice beside the table (serve's none).
 * Without `--world` on the command line, a setting that chooses a kind does (`run --host` means remote); a setting
 * given on the command line that the kind does not read is refused, naming the kinds that read it; a setting the
 * kind needs must be there. Only the settings the kind reads are in the choice, so a config's world of another kind
 * leaves nothing behind.
 */
export function worldChoiceOf(command: Command): WorldChoice | null {
  const options = offered.get(command)!;
  const name = (setting: Setting) => options.get(setting)?.attributeName();
  const value = (setting: Setting): unknown =>
    options.has(setting) ? command.getOptionValue(name(setting)!) : undefined;
  const given = (setting: Setting) => options.has(setting) && command.getOptionValueSource(name(setting)!) === 'cli';
  let kind: unknown = command.getOptionValue('world');
  if (command.getOptionValueSource('world') !== 'cli') {
    const chosen = WORLDS.find((row) => row.chosenBy && given(row.chosenBy));
    if (chosen) kind = chosen.kind;
  }
  if (!isWorldKind(kind)) return null;
  const row = worldKind(kind);
  for (const setting of options.keys()) {
    if (setting === 'seed' || !given(setting) || row.reads.includes(setting)) continue;
    const readers = kindsReading(setting);
    const why = row.refuses?.[setting];
    throw new CliUsageError(
      `${flagOf(options, setting)} applies to the ${list(readers)} world${readers.length > 1 ? 's' : ''} only${why ? `; ${why}` : ''}`,
    );
  }
  const missing = (row.needs ?? []).filter((setting) => value(setting) === undefined);
  if (missing.length > 0) {
    const usually = row.reads.filter((s) => options.has(s) && !missing.includes(s)).map((s) => flagOf(options, s));
    throw new CliUsageError(
      `--world ${kind} needs ${list(missing.map((s) => flagOf(options, s)))}${usually.length ? ` (and usually ${usually.join(', ')})` : ''}`,
    );
  }
  const choice: WorldChoice = { world: kind, seed: value('seed') as number };
  for (const setting of row.reads) {
    if (options.has(setting) && value(setting) !== undefined) Object.assign(choice, { [setting]: value(setting) });
  }
  return choice;
}

/**
 * A project config's world as the option values it stands for in this command: `--world` its kind, and each of its
 * settings the command offers. Empty for a command without world options.
 */
export function worldConfigDefaults(
  command: Command,
  world: { kind: WorldKind } & Partial<WorldSettings>,
): [name: string, value: unknown][] {
  const options = offered.get(command);
  if (!options) return [];
  const settings = Object.entries(world).filter(([key]) => key !== 'kind') as [Setting, unknown][];
  return [
    ['world', world.kind],
    ...settings.filter(([key]) => options.has(key)).map(([key, value]) => [options.get(key)!.attributeName(), value]),
  ] as [string, unknown][];
}

/** How the table's kinds hold several bots, for `--bots`'s help. */
export function howBotsShare(): string {
  const share = WORLDS.filter((row) => row.bots === 'share').map((row) => row.kind);
  const apart = WORLDS.filter((row) => row.bots === 'apart').map((row) => row.kind);
  return [
    share.length ? `on ${list(share)} they share its world` : '',
    apart.length ? `on ${list(apart)} each has a world of its own` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** The table's kinds, as a user would type them: "--world embedded, sim or remote". */
export function worldKindsInWords(): string {
  return `--world ${list(WORLD_KINDS, 'or')}`;
}
