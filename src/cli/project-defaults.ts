import { basename } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_JOURNAL_PATH } from '../journal/journal.js';
import { CliUsageError } from './io.js';
import type { Project } from './project-config.js';
import { worldConfigDefaults } from './world-options.js';

/**
 * Makes a project's config the default of the options it covers, in the command about to run
 * and its subcommands: what the command line gives still wins, and `--help` shows where a default
 * came from. The commands themselves read their options as always.
 */
export function applyProjectDefaults(command: Command, project: Project): void {
  const { config } = project;
  const from = `from ${basename(project.file)}`;
  const set = (target: Command, name: string, value: unknown, shown = true): void => {
    const option = target.options.find((o) => o.attributeName() === name);
    if (!option || value === undefined) return;
    target.setOptionValueWithSource(name, value, 'config');
    if (shown) {
      option.defaultValue = value;
      option.defaultValueDescription = `${JSON.stringify(value)} ${from}`;
    }
  };
  // The config's world, in every command that takes a world (worldChoiceOf drops the settings another kind reads).
  if (config.world) for (const [name, value] of worldConfigDefaults(command, config.world)) set(command, name, value);
  const each = (target: Command): void => {
    const journal = target.options.find((o) => o.attributeName() === 'journal');
    if (config.journal && journal?.defaultValue === DEFAULT_JOURNAL_PATH) set(target, 'journal', config.journal);
    target.commands.forEach(each);
  };
  each(command);
  // run, serve and mcp: the combat policy (set only where the command has the option).
  set(command, 'combat', config.safety?.combat);
  set(command, 'fightHealthFloor', config.safety?.fightHealthFloor);

  if (command.name() === 'run') {
    const journal = command.options.find((o) => o.attributeName() === 'journal');
    // `run --journal` without a path, and `run --resume`, use the project's journal.
    if (journal && config.journal) journal.presetArg = config.journal;
    set(command, 'stuckConfig', config.stuckConfig);
    command.hook('preAction', (run) => {
      if (config.journal && run.getOptionValue('resume') !== undefined && run.getOptionValue('journal') === undefined)
        run.setOptionValue('journal', config.journal);
      const journaled = run.getOptionValue('journal') !== undefined || run.getOptionValue('resume') !== undefined;
      if (journaled && run.getOptionValueSource('stuckConfig') === 'config') {
        throw new CliUsageError(
          `stuckConfig in ${project.file} does not combine with --journal or --resume in this version; run without the journal, or move stuckConfig out of the config for journaled runs`,
        );
      }
    });
  }

  if (command.name() === 'worker') {
    const headroom = config.worker?.headroom;
    set(command, 'maxLoopDelayMs', headroom?.loopDelayMs);
    set(command, 'maxCpu', headroom?.cpu);
    set(command, 'headroomWindowMs', headroom?.windowMs);
  }

  if (command.name() === 'serve' || command.name() === 'mcp') {
    // The token comes from the variable the config names, and only from it; never shown in --help.
    if (config.api?.tokenEnv) set(command, 'token', process.env[config.api.tokenEnv] ?? '', false);
  }
}
