/**
 * Writes test/helpers/file-durations.json, the order the suite's files start in (test/helpers/slow-first-sequencer.ts),
 * from a vitest JSON report of a full run:
 *
 *   npx vitest run --reporter=json --outputFile=/tmp/report.json   (the whole suite: on a quiet machine)
 *   npx tsx test/helpers/write-file-durations.ts /tmp/report.json
 *
 * A file's duration is its tests' time: the first test's start to the last test's end, in seconds.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { z } from 'zod';

const Report = z.object({
  testResults: z.array(z.object({ name: z.string(), startTime: z.number(), endTime: z.number() })),
});

const root = resolve(import.meta.dirname, '..', '..');
const reportPath = process.argv[2];
if (!reportPath) {
  console.error('usage: npx tsx test/helpers/write-file-durations.ts <vitest JSON report of a full run>');
  process.exit(2);
}
const report = Report.parse(JSON.parse(readFileSync(reportPath, 'utf8')));
// The report names files by the path of the checkout that ran them: kept relative to that checkout's root.
const checkout = commonRoot(report.testResults.map((result) => result.name));
const durations = Object.fromEntries(
  report.testResults
    .map((result): [string, number] => [
      relative(checkout, result.name),
      Math.round((result.endTime - result.startTime) / 100) / 10,
    ])
    .sort(([a], [b]) => a.localeCompare(b)),
);
const out = resolve(root, 'test', 'helpers', 'file-durations.json');
writeFileSync(out, `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${Object.keys(durations).length} files' durations written to ${relative(root, out)}`);

/** The folder above every test/ and capabilities/ of the report's files. */
function commonRoot(names: string[]): string {
  const roots = new Set(names.map((name) => name.replace(/\/(test|capabilities)\/.*$/, '')));
  if (roots.size !== 1)
    throw new Error(`the report's files come from more than one checkout: ${[...roots].join(', ')}`);
  return [...roots][0]!;
}
