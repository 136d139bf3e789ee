import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { formatTree } from '../../runtime/format-tree.js';
import { NODE_STATES, type NodeState } from '../../runtime/hooks.js';
import { TreeLoadError, formatProblem, loadTreeCatalog } from '../../runtime/tree-catalog.js';
import { closestMatch } from '../../registry/suggest.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import type { TreeContext } from './lint.js';

/**
 * Last state per node path from a recorded run: JSON lines of node state changes ({nodePath, to, ...}) as
 * `run --record-nodes` writes them.
 */
async function recordedStates(file: string): Promise<Map<string, NodeState>> {
  const text = await readFile(file, 'utf8').catch(() => {
    throw new CliUsageError(`tree show: cannot read the recorded run ${file}`);
  });
  const states = new Map<string, NodeState>();
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let event: { nodePath?: unknown; to?: unknown };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      throw new CliUsageError(
        `${file}:${i + 1}: not JSON; expected one node state change per line, e.g. {"nodePath":"dig_block/sequence","to":"running"}`,
      );
    }
    if (
      typeof event.nodePath === 'string' &&
      typeof event.to === 'string' &&
      (NODE_STATES as readonly string[]).includes(event.to)
    )
      states.set(event.nodePath, event.to as NodeState);
  });
  return states;
}

/** `verbtree tree show <name>`: a tree as indented text, with a recorded run's node states. */
export function treeCommand(context: () => TreeContext, io: CliIO, setExit: (code: number) => void): Command {
  const tree = new Command('tree').description('Inspect behavior trees.').addHelpText(
    'after',
    `
Examples:
  $ verbtree tree show navigate
  $ verbtree tree show dig_block --run nodes.jsonl   (from verbtree run … --record-nodes nodes.jsonl)`,
  );
  tree
    .command('show')
    .description('Print a tree as indented text (type, arguments, watchdogs and guards, source line).')
    .argument('<name>', 'tree name: trees/<name>.mdsl defines "<name>"')
    .option('--trees <dir>', "where the trees live (default: the built-in trees and the project config's tree folders)")
    .option(
      '--run <events.jsonl>',
      "a recorded run (node state changes as JSON lines, from run --record-nodes): show each node's last state",
    )
    .addHelpText(
      'after',
      `
Exit codes: 0 shown, 1 the trees do not load (problems listed), 2 unknown tree or bad arguments.

Examples:
  $ verbtree tree show retry_backoff
  $ verbtree tree show dig_block --run runs/dig_block.jsonl`,
    )
    .action(async (name: string, options: { trees?: string; run?: string }) => {
      const { bindings, capabilities, treePaths } = context();
      const paths = options.trees !== undefined ? [options.trees] : treePaths;
      let catalog;
      try {
        catalog = await loadTreeCatalog(paths, bindings, capabilities ? { capabilities } : {});
      } catch (error) {
        if (!(error instanceof TreeLoadError)) throw error;
        for (const problem of error.problems) io.err(formatProblem(problem));
        io.err(
          `✗ the trees in ${paths.join(' ')} do not load; fix the problems above (verbtree lint ${paths.join(' ')})`,
        );
        setExit(EXIT.failed);
        return;
      }
      const compiled = catalog.get(name);
      if (!compiled) {
        const hint = closestMatch(name, catalog.names());
        throw new CliUsageError(
          `tree show: no tree "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}; trees: ${catalog.names().join(', ')}`,
        );
      }
      io.out(formatTree(compiled, options.run ? await recordedStates(options.run) : undefined));
      setExit(EXIT.ok);
    });
  return tree;
}
