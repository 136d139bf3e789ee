import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { createDefaultRegistry } from '../../capabilities/index.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { bindingsFor, builtinTreePaths, CapabilityTreeError, treeCapabilitiesOf } from '../executor/assemble.js';
import { BindingError } from '../runtime/binding-registry.js';
import { TreeLoadError } from '../runtime/tree-catalog.js';
import { RegistrationError } from '../registry/registry.js';
import { MissingPackageError } from '../missing-package.js';
import type { TreeContext } from './commands/lint.js';
import { type CliIO, CliUsageError, EXIT, processIO } from './io.js';
import { packageRoot } from '../package-root.js';
import { loadProject, type Project } from './project-config.js';
import { applyProjectDefaults } from './project-defaults.js';

export interface CliOptions {
  io?: CliIO;
  registry?: CapabilityRegistry;
  /** Where the project config is looked for (default: the working directory). */
  cwd?: string;
}

/** What every command reads of the project: set once its config is loaded, before the command runs. */
interface ProjectState {
  project?: Project;
  registry: () => CapabilityRegistry;
}

/** What the commands are made of. */
interface CommandContext {
  registry: () => CapabilityRegistry;
  io: CliIO;
  setExit: (code: number) => void;
  extraTreePaths: () => string[];
  trees: () => TreeContext;
  root: string;
  state: ProjectState;
}

/*
 * Each command's module is imported when the command is wanted: a process runs one command, and most of the CLI's
 * start-up is loading modules (the MCP SDK, fastify, node-postgres, mineflayer) that other commands use.
 */
const COMMANDS: Record<string, (c: CommandContext) => Promise<Command>> = {
  validate: async (c) => (await import('./commands/validate.js')).validateCommand(c.registry, c.io, c.setExit),
  registry: async (c) =>
    (await import('./commands/registry.js')).registryCommand(
      c.registry,
      join(c.root, 'capabilities'),
      c.io,
      c.setExit,
      () => c.state.project?.config.canaries,
    ),
  verbs: async (c) => (await import('./commands/verbs.js')).verbsCommand(c.registry, c.io, c.setExit),
  run: async (c) => (await import('./commands/run.js')).runCommand(c.registry, c.io, c.setExit, c.extraTreePaths),
  health: async (c) => (await import('./commands/health.js')).healthCommand(c.io, c.setExit),
  incidents: async (c) => (await import('./commands/incidents.js')).incidentsCommand(c.io, c.setExit),
  runs: async (c) => (await import('./commands/runs.js')).runsCommand(c.io, c.setExit),
  show: async (c) => (await import('./commands/show.js')).showCommand(c.io, c.setExit),
  serve: async (c) => (await import('./commands/serve.js')).serveCommand(c.registry, c.io, c.setExit, c.extraTreePaths),
  mcp: async (c) => (await import('./commands/mcp.js')).mcpCommand(c.registry, c.io, c.setExit, c.extraTreePaths),
  world: async (c) => (await import('./commands/world.js')).worldCommand(c.io, c.setExit),
  worker: async (c) =>
    (await import('./commands/worker.js')).workerCommand(c.registry, c.io, c.setExit, c.extraTreePaths),
  control: async (c) => (await import('./commands/control.js')).controlCommand(c.io, c.setExit),
  lint: async (c) => (await import('./commands/lint.js')).lintCommand(c.trees, c.io, c.setExit),
  tree: async (c) => (await import('./commands/tree.js')).treeCommand(c.trees, c.io, c.setExit),
};

/** The one command argv names (its first word past the root's options), or every command: help, a typo, --version. */
function commandsFor(argv: readonly string[]): ((c: CommandContext) => Promise<Command>)[] {
  let i = 0;
  while (argv[i] === '--config') i += 2;
  while (argv[i]?.startsWith('--config=')) i += 1;
  const word = argv[i];
  return word !== undefined && Object.hasOwn(COMMANDS, word) ? [COMMANDS[word]!] : Object.values(COMMANDS);
}

async function buildProgram(
  argv: readonly string[],
  io: CliIO,
  state: ProjectState,
  setExit: (code: number) => void,
  cwd: string,
): Promise<Command> {
  const root = packageRoot();
  const registry = () => state.registry();
  const extraTreePaths = () => state.project?.config.trees ?? [];
  const trees = () => {
    const reg = registry();
    return {
      bindings: bindingsFor(reg),
      capabilities: treeCapabilitiesOf(reg),
      treePaths: [...builtinTreePaths(), ...extraTreePaths()],
    };
  };
  const program = new Command('verbtree')
    .description('Turns plans into verified action for Minecraft bots.')
    .version(process.env.npm_package_version ?? '0.1.0')
    .enablePositionalOptions()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) })
    .option(
      '--config <file>',
      'the project config (default: the nearest verbtree.config.{ts,mjs,js,json} from this folder up)',
    )
    .hook('preSubcommand', async (_program, command) => {
      const project = await loadProject(cwd, program.opts<{ config?: string }>().config);
      if (!project) return;
      state.project = project;
      state.registry = () => project.registry;
      applyProjectDefaults(command, project);
    })
    .addHelpText(
      'after',
      `
Examples:
  $ verbtree validate examples/acquire-wood.plan.json
  $ verbtree registry --json
  $ verbtree verbs --check examples/planner-verbs.json`,
    );
  const context: CommandContext = { registry, io, setExit, extraTreePaths, trees, root, state };
  for (const make of commandsFor(argv)) program.addCommand(await make(context));
  // Nested commands (`health check`) need the same output and exit handling as their parents.
  const configure = (command: Command): void => {
    command.configureOutput(program.configureOutput()).exitOverride();
    command.commands.forEach(configure);
  };
  program.commands.forEach(configure);
  return program.exitOverride();
}

/** Runs the CLI in-process and resolves to its exit code; nothing here calls process.exit. */
export async function runCli(argv: readonly string[], options: CliOptions = {}): Promise<number> {
  const io = options.io ?? processIO;
  let registry = options.registry;
  const state: ProjectState = { registry: () => (registry ??= createDefaultRegistry()) };
  let exitCode: number = EXIT.ok;
  const program = await buildProgram(
    argv,
    io,
    state,
    (code) => {
      exitCode = code;
    },
    options.cwd ?? process.cwd(),
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0
        ? EXIT.ok
        : EXIT.usage;
    }
    // A project whose capabilities or trees do not fit together is the user's to fix: its message, not a stack.
    if (
      error instanceof CliUsageError ||
      error instanceof MissingPackageError ||
      error instanceof CapabilityTreeError ||
      error instanceof TreeLoadError ||
      error instanceof BindingError ||
      error instanceof RegistrationError
    ) {
      io.err(`verbtree: ${error.message}`);
      return EXIT.usage;
    }
    io.err(`verbtree: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.failed;
  }
}
