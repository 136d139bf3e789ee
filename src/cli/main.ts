import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { createDefaultRegistry } from '../../capabilities/index.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { bindingsFor, builtinTreePaths, CapabilityTreeError, treeCapabilitiesOf } from '../executor/assemble.js';
import { BindingError } from '../runtime/binding-registry.js';
import { TreeLoadError } from '../runtime/tree-catalog.js';
import { RegistrationError } from '../registry/registry.js';
import { lintCommand } from './commands/lint.js';
import { registryCommand } from './commands/registry.js';
import { treeCommand } from './commands/tree.js';
import { runCommand } from './commands/run.js';
import { validateCommand } from './commands/validate.js';
import { verbsCommand } from './commands/verbs.js';
import { healthCommand } from './commands/health.js';
import { incidentsCommand } from './commands/incidents.js';
import { runsCommand } from './commands/runs.js';
import { showCommand } from './commands/show.js';
import { MissingPackageError } from '../missing-package.js';
import { controlCommand } from './commands/control.js';
import { serveCommand } from './commands/serve.js';
import { mcpCommand } from './commands/mcp.js';
import { worldCommand } from './commands/world.js';
import { workerCommand } from './commands/worker.js';
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

function buildProgram(io: CliIO, state: ProjectState, setExit: (code: number) => void, cwd: string): Command {
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
  for (const command of [
    validateCommand(registry, io, setExit),
    registryCommand(registry, join(root, 'capabilities'), io, setExit, () => state.project?.config.canaries),
    verbsCommand(registry, io, setExit),
    runCommand(registry, io, setExit, extraTreePaths),
    healthCommand(io, setExit),
    incidentsCommand(io, setExit),
    runsCommand(io, setExit),
    showCommand(io, setExit),
    serveCommand(registry, io, setExit, extraTreePaths),
    mcpCommand(registry, io, setExit, extraTreePaths),
    worldCommand(io, setExit),
    workerCommand(registry, io, setExit, extraTreePaths),
    controlCommand(io, setExit),
    lintCommand(trees, io, setExit),
    treeCommand(trees, io, setExit),
  ]) {
    program.addCommand(command);
  }
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
  const program = buildProgram(
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
