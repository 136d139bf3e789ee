import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order the suite's files start in: the shared-modules files first, then the isolated ones, each group's slowest
 * first, by the durations of a past full run (file-durations.json, written by write-file-durations.ts).
 *
 * Why: on a clean clone (CI) vitest has no durations of its own and keeps the order it found the files in, and its
 * projects run one after the other. A slow file that starts last runs alone on one worker while the other is idle
 * (the shared-modules project, run last, holds SimWorld files of 20 s and more). Slowest first, the run ends on short
 * files on both workers. The shared files go first and together: a worker keeps its shared modules only while the
 * next file in the queue is a shared one too. A file without a duration (new since the list was written) goes in the
 * middle, at the median: neither the tail nor the head.
 */
export default class SlowFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = JSON.parse(readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8')) as Record<
      string,
      number
    >;
    const known = Object.values(durations).sort((a, b) => a - b);
    const median = known[Math.floor(known.length / 2)] ?? 0;
    const root = this.ctx.config.root;
    const keyed = files.map((spec) => {
      const path = relative(root, spec.moduleId);
      return { spec, path, shared: spec.project.config.isolate === false, seconds: durations[path] ?? median };
    });
    keyed.sort((a, b) => Number(b.shared) - Number(a.shared) || b.seconds - a.seconds || a.path.localeCompare(b.path));
    return Promise.resolve(keyed.map(({ spec }) => spec));
  }
}
