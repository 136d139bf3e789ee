/**
 * The CLI's own `--help`, run in-process once per command path and parsed into the subcommands and long options
 * it lists, so a doc's `verbtree <command> --option` is checked against what the command really accepts.
 */
import { runCli } from '../../src/cli/main.js';
import { repoRoot } from './markdown.js';

export interface CommandHelp {
  commands: Set<string>;
  /** Each long option, and whether it takes a value (`--config <file>`). */
  options: Map<string, boolean>;
}

/** The entries of one section of commander's help (`Options:`, `Commands:`): the first word of each. */
function sectionEntries(help: string, title: string): string[] {
  const start = help.indexOf(`\n${title}:\n`);
  if (start < 0) return [];
  const body = help.slice(start + title.length + 3).split(/\n\n/)[0]!;
  return [...body.matchAll(/^ {2}(\S.*)$/gm)].map((match) => match[1]!);
}

export function parseHelp(help: string): CommandHelp {
  const commands = sectionEntries(help, 'Commands')
    .map((entry) => entry.split(/[\s|]/)[0]!)
    .filter((name) => name !== 'help');
  const options = sectionEntries(help, 'Options').flatMap((entry) =>
    [...entry.matchAll(/(--[a-z][\w-]*)( <)?/g)].map((m) => [m[1]!, m[2] !== undefined] as const),
  );
  return { commands: new Set(commands), options: new Map(options) };
}

const cache = new Map<string, Promise<CommandHelp | undefined>>();

/** `verbtree <path…> --help` as the CLI prints it, or undefined when that command does not exist. */
export function helpFor(path: readonly string[]): Promise<CommandHelp | undefined> {
  const key = path.join(' ');
  let help = cache.get(key);
  if (!help) {
    help = (async () => {
      let out = '';
      const io = { out: (text: string) => void (out += `${text}\n`), err: () => undefined };
      const code = await runCli([...path, '--help'], { io, cwd: repoRoot });
      return code === 0 ? parseHelp(out) : undefined;
    })();
    cache.set(key, help);
  }
  return help;
}

/**
 * What is wrong with one `verbtree …` command line of a doc: a command that does not exist, or an option its
 * command's --help does not list. Options before the command are the program's own (`--config`).
 */
export async function commandLineProblems(args: readonly string[]): Promise<string[]> {
  const path: string[] = [];
  let help = await helpFor(path);
  const problems: string[] = [];
  let takesValue = false;
  for (const word of args) {
    if (word === '--') break;
    if (takesValue) takesValue = false;
    else if (word.startsWith('--')) {
      const [option, value] = word.split('=');
      if (!help!.options.has(option!) && option !== '--help')
        problems.push(`"verbtree ${path.join(' ')}" has no option ${option}`);
      takesValue = value === undefined && help!.options.get(option!) === true;
    } else if (help!.commands.size > 0 && !word.startsWith('-') && /^[a-z]/.test(word)) {
      // A command with subcommands takes its next bare word as one of them (`health check`, `tree show`).
      if (!help!.commands.has(word)) {
        problems.push(`"verbtree ${path.join(' ')}" has no command "${word}"`.replace('verbtree  ', 'verbtree '));
        return problems;
      }
      path.push(word);
      help = (await helpFor(path))!;
    }
  }
  return problems;
}

/** What `verbtree <args…>` prints (standard output, then standard error), run in-process from the repository. */
export async function cliOutput(args: readonly string[]): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  await runCli(args, { io: { out: (text) => void out.push(text), err: (text) => void err.push(text) }, cwd: repoRoot });
  return [...out, ...err].join('\n').trimEnd();
}
