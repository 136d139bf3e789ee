import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Table from 'cli-table3';
import type { Bench, BenchResult } from './types.js';

const HELP = `Usage: npm run bench [-- --json] [-- <filter>]

Runs every bench/*.bench.ts and prints a table of measured figures, with the
baseline measured in the same run and the ratio against it where one exists.
  --json     one JSON object per line: {"name","value","unit","baseline","ratio"}
  <filter>   only bench files whose name contains this text, e.g. "runtime"`;

function format(value: number | undefined): string {
  if (value === undefined) return '';
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  const json = argv.includes('--json');
  const filters = argv.filter((arg) => !arg.startsWith('--'));
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const files = (await readdir(dir))
    .filter((file) => file.endsWith('.bench.ts'))
    .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
    .sort();
  const table = new Table({ head: ['bench', 'value', 'unit', 'baseline', 'ratio'] });
  for (const file of files) {
    if (!json) process.stderr.write(`running ${file}…\n`);
    const bench = (await import(pathToFileURL(`${dir}/${file}`).href)).default as Bench;
    const results: BenchResult[] = await bench();
    for (const result of results) {
      if (json) console.log(JSON.stringify(result));
      else table.push([result.name, format(result.value), result.unit, format(result.baseline), format(result.ratio)]);
    }
  }
  if (!json) console.log(table.toString());
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
