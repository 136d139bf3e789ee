import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { createDefaultRegistry } from '../../capabilities/index.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { bindingsFor } from '../executor/assemble.js';
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
import { serveCommand } from './commands/serve.js';
import { type CliIO, CliUsageError, EXIT, processIO } from './io.js';
import { packageRoot } from '../package-root.js';

export interface CliOptions {
  io?: CliIO;
  registry?: CapabilityRegistry;
}

function buildProgram(io: CliIO, registry: () => CapabilityRegistry, setExit: (code: number) => void): Command {
  const root = packageRoot();
  const program = new Command('verbtree')
    .description('Turns plans into verified action for Minecraft bots.')
    .version(process.env.npm_package_version ?? '0.1.0')
    .enablePositionalOptions()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) })
    .addHelpText('after', `
Examples:
  $ verbtree validate examples/acquire-wood.plan.json
  $ verbtree registry --json
  $ verbtree verbs --check examples/planner-verbs.json`);
  for (const command of [
    validateCommand(registry, io, setExit),
    registryCommand(registry, join(root, 'capabilities'), io, setExit),
    verbsCommand(registry, io, setExit),
    runCommand(registry, io, setExit),
    healthCommand(io, setExit),
    incidentsCommand(io, setExit),
    runsCommand(io, setExit),
    showCommand(io, setExit),
    serveCommand(registry, io, setExit),
    lintCommand(() => bindingsFor(registry()), io, setExit, join(root, 'trees')),
    treeCommand(() => bindingsFor(registry()), io, setExit, join(root, 'trees')),
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
  const lazyRegistry = () => (registry ??= createDefaultRegistry());
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, lazyRegistry, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliUsageError) {
      io.err(`verbtree: ${error.message}`);
      return EXIT.usage;
    }
    io.err(`verbtree: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return EXIT.failed;
  }
}
