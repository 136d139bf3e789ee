import { access } from 'node:fs/promises';
import { Command } from 'commander';
import type { BindingRegistry } from '../../runtime/binding-registry.js';
import { checkTreeSources, formatProblem, readTreeSources } from '../../runtime/tree-catalog.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';

/**
 * `verbtree lint [paths...]`: checks tree definitions against the leaves the
 * registry binds. `bindings` is the assembled registry (runtime world leaves
 * plus every capability's bindings); `treesDir` is the default path.
 */
export function lintCommand(bindings: () => BindingRegistry, io: CliIO, setExit: (code: number) => void, treesDir: string): Command {
  return new Command('lint')
    .description('Check behavior-tree definitions (.mdsl, .json) and list every problem as file:line: message.')
    .argument('[paths...]', 'tree files or directories (searched recursively)', [treesDir])
    .option('--json', 'print the problems as a JSON array of {file, line, message}')
    .addHelpText('after', `
Checks syntax as mistreevous reads it (and runs mistreevous's own validateDefinition), unknown
action/condition/guard names (with "did you mean"), watchdog kinds and limits, idiom placement
(backoff inside a retry), missing and circular branches, nesting deeper than 200 levels.
Symlinks are followed only inside the folder named. Where verbtree is stricter than
mistreevous, the message says why (README: "How verbtree reads tree definitions").
Exit codes: 0 clean, 1 problems found, 2 usage error (e.g. a path that does not exist).

Examples:
  $ verbtree lint
  $ verbtree lint trees/dig_block.mdsl trees/idioms`)
    .action(async (paths: string[], options: { json?: boolean }) => {
      for (const path of paths) {
        await access(path).catch(() => {
          throw new CliUsageError(`lint: ${path} does not exist (pass tree files or directories, default ${treesDir})`);
        });
      }
      const sources = await readTreeSources(paths);
      const { problems } = checkTreeSources(sources, bindings());
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
