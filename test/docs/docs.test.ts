/**
 * The docs break the build when they drift: every fenced block of the README and of docs/*.md, and every command
 * quoted inline, is checked against the code (commands against the CLI's --help, package.json and bench/, plans
 * against the validator, TypeScript against the package's exports), and every relative link against the files and
 * headings it points to.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { validatePlan } from '../../src/validate/index.js';
import { cliOutput, commandLineProblems } from './cli-help.js';
import { codeBlocks, docFiles, headingAnchors, relativeLinks, repoRoot } from './markdown.js';
import {
  consoleTranscript,
  examplePaths,
  inlineCommands,
  npmScript,
  SHELL_LANGS,
  shellCommands,
  verbtreeArgs,
} from './shell.js';
import { isFragment, parseProblems, TS_LANGS, typecheckProblems } from './typecheck.js';

const docs = docFiles();
const blocks = docs.flatMap(codeBlocks);
const shell = [
  ...blocks.filter((block) => SHELL_LANGS.has(block.lang)).flatMap(shellCommands),
  ...docs.flatMap(inlineCommands),
];
const benches = readdirSync(join(repoRoot, 'bench')).filter((name) => name.endsWith('.bench.ts'));
const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: object }).scripts;

describe('the docs (README.md and docs/*.md)', () => {
  it('run only verbtree commands and options that exist, as each command’s --help lists them', async () => {
    const lines = shell.flatMap((command) => {
      const args = verbtreeArgs(command.words);
      return args ? [{ at: `${command.file}:${command.line}`, args }] : [];
    });
    expect(lines.length, 'verbtree command lines found in the docs').toBeGreaterThan(30);
    const problems = (
      await Promise.all(lines.map(async ({ at, args }) => (await commandLineProblems(args)).map((p) => `${at}: ${p}`)))
    ).flat();
    expect(problems).toEqual([]);
  });

  it('show, in a console block marked checked, what each command really prints', async () => {
    const transcript = blocks
      .filter((block) => block.lang === 'console' && block.marks.includes('checked'))
      .flatMap(consoleTranscript);
    expect(transcript.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const { file, line, words, output } of transcript) {
      const args = verbtreeArgs(words);
      if (!args) problems.push(`${file}:${line}: only verbtree commands run in a checked console block`);
      else if ((await cliOutput(args)) !== output) problems.push(`${file}:${line}: prints\n${await cliOutput(args)}`);
    }
    expect(problems).toEqual([]);
  });

  it('run only npm scripts package.json has and benches bench/ has, and name only files under examples/ that exist', () => {
    const problems = shell.flatMap(({ file, line, words }) => {
      const script = npmScript(words);
      const missingScript = script !== undefined && !(script in scripts) ? [`npm script "${script}"`] : [];
      // `npm run bench -- <filter>` runs the bench files whose name holds the filter: at least one must.
      const filter =
        script === 'bench' ? words.slice(words.indexOf('--') + 1).find((w) => !w.startsWith('-')) : undefined;
      const missingBench = words.includes('--') && filter && !benches.some((name) => name.includes(filter));
      const missingFiles = examplePaths(words).filter((path) => !existsSync(join(repoRoot, path)));
      const problems = [...missingScript, ...(missingBench ? [`bench/*.bench.ts named like "${filter}"`] : [])];
      return [...problems, ...missingFiles].map((what) => `${file}:${line}: no ${what}`);
    });
    expect(problems).toEqual([]);
  });

  it('hold JSON that parses, plans that pass verbtree validate, and MCP configs whose verbtree options exist', async () => {
    const json = blocks.filter((block) => block.lang === 'json');
    expect(json.length).toBeGreaterThan(0);
    const registry = createDefaultRegistry();
    const problems = json.flatMap((block) => {
      let value: unknown;
      try {
        value = JSON.parse(block.code);
      } catch (error) {
        return [`${block.file}:${block.line}: ${(error as Error).message}`];
      }
      if (typeof value !== 'object' || value === null || !('steps' in value)) return [];
      const report = validatePlan(value, registry);
      return report.ok ? [] : report.issues.map((issue) => `${block.file}:${block.line}: ${JSON.stringify(issue)}`);
    });
    // A client's MCP config ({ mcpServers: { name: { command: "npx", args: ["verbtree", "mcp", …] } } }).
    for (const block of json) {
      const servers = (JSON.parse(block.code) as { mcpServers?: Record<string, { command: string; args: string[] }> })
        .mcpServers;
      for (const server of Object.values(servers ?? {})) {
        const args = verbtreeArgs([server.command, ...server.args]);
        if (args) problems.push(...(await commandLineProblems(args)).map((p) => `${block.file}:${block.line}: ${p}`));
      }
    }
    expect(problems).toEqual([]);
  });

  it('hold TypeScript that typechecks against the package’s exports (fragments and JavaScript: that parses)', () => {
    const typescript = blocks.filter((block) => TS_LANGS.has(block.lang));
    expect(typescript.length).toBeGreaterThan(0);
    const javascript = blocks.filter((block) => block.lang === 'js' || block.lang === 'javascript');
    const fragments = [...typescript.filter(isFragment), ...javascript];
    const problems = [
      ...fragments.flatMap(parseProblems),
      ...typecheckProblems(typescript.filter((block) => !isFragment(block))),
    ];
    expect(problems).toEqual([]);
  }, 300_000);

  it('quote tree files as they are (```mdsl trees/<name>.mdsl)', () => {
    const quoted = blocks.filter((block) => block.lang === 'mdsl');
    expect(quoted.length).toBeGreaterThan(0);
    const problems = quoted.flatMap((block) => {
      const path = block.marks[0];
      if (!path || !existsSync(join(repoRoot, path))) return [`${block.file}:${block.line}: names no tree file`];
      const text = readFileSync(join(repoRoot, path), 'utf8');
      return text.includes(block.code) ? [] : [`${block.file}:${block.line}: is not what ${path} holds`];
    });
    expect(problems).toEqual([]);
  });

  it('link only to files and headings that exist', () => {
    const anchorsOf = new Map(docs.map((doc) => [doc.path, headingAnchors(doc)]));
    const problems = docs.flatMap(relativeLinks).flatMap(({ file, line, target }) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(join(repoRoot, resolved))) return [`${file}:${line}: ${target}: no file ${resolved}`];
      if (anchor === undefined || !resolved.endsWith('.md')) return [];
      const anchors =
        anchorsOf.get(resolved) ??
        headingAnchors({ path: resolved, text: readFileSync(join(repoRoot, resolved), 'utf8') });
      return anchors.has(anchor) ? [] : [`${file}:${line}: ${target}: no heading #${anchor} in ${resolved}`];
    });
    expect(problems).toEqual([]);
  });
});
