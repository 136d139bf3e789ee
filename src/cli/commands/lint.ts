import { access } from 'node:fs/promises';
import { Command } from 'commander';
import type { BindingRegistry } from '../../runtime/binding-registry.js';
import type { TreeCapability } from '../../runtime/lint.js';
import { checkTreeSources, formatProblem, readTreeSources } from '../../runtime/tree-catalog.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';

/**
 * What the tree commands check trees against: the leaves bound, the capabilities whose trees they are, and where trees
 * live.
 */
export interface TreeContext {
  bindings: BindingRegistry;
  capabilities?: readonly TreeCapability[];
  /** The built-in tree folder and the project's own. */
  treePaths: readonly string[];
}

/**
 * `verbtree lint [paths...]`: checks tree definitions against the leaves the
 * registry binds (runtime world leaves plus every capability's bindings) and
 * the arguments each capability takes; by default every tree folder.
 */
export function lintCommand(context: () => TreeContext, io: CliIO, setExit: (code: number) => void): Command {
  return new Command('lint')
    .description('Check behavior-tree definitions (.mdsl, .json) and list every problem as file:line: message.')
    .argument(
      '[paths...]',
      "tree files or directories (searched recursively); default: the built-in trees and the project config's tree folders",
    )
    .option('--json', 'print the problems as a JSON array of {file, line, message}')
    .addHelpText(
      'after',
      `
Checks syntax as mistreevous reads it (and runs mistreevous's own validateDefinition), unknown
action/condition/guard names (with "did you mean"), leaves called with the wrong number of
arguments, $name arguments the capability's input schema lacks, watchdog kinds and limits, idiom placement
(backoff inside a retry), missing and circular branches, nesting deeper than 200 levels.
Symlinks are followed only inside the folder named. Where verbtree is stricter than
mistreevous, the message says why (docs/capabilities.md: "How verbtree reads tree definitions").
Exit codes: 0 clean, 1 problems found, 2 usage error (e.g. a path that does not exist).

Examples:
  $ verbtree lint
  $ verbtree lint trees/dig_block.mdsl trees/idioms`,
    )
    .action(async (given: string[], options: { json?: boolean }) => {
      const { bindings, capabilities, treePaths } = context();
      const paths = given.length > 0 ? given : treePaths;
      for (const path of paths) {
        await access(path).catch(() => {
          throw new CliUsageError(
            `lint: ${path} does not exist (pass tree files or directories, default ${treePaths.join(' ')})`,
          );
        });
      }
      const sources = await readTreeSources(paths);
      const { problems } = checkTreeSources(sources, bindings, capabilities ? { capabilities } : {});
      if (options.json) io.out(JSON.stringify(problems, null, 2));
      else if (problems.length === 0) io.out(`✓ ${sources.length} tree file(s) clean`);
      else {
        for (const problem of problems) io.out(formatProblem(problem));
        const files = new Set(problems.map((p) => p.file)).size;
        io.out(`✗ ${problems.length} problem(s) in ${files} of ${sources.length} tree file(s)`);
      }
      setExit(problems.length === 0 ? EXIT.ok : EXIT.failed);
    });
}
