/**
 * The docs' TypeScript blocks, compiled as a reader would compile them against the package: each block its own
 * module in a folder inside the repository, `verbtree` and its subpaths mapped to the sources of the package's
 * exports, one TypeScript program (the compiler's API, as tsc runs it) for all of them. A block marked `fragment` is only parsed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { CodeBlock } from './markdown.js';
import { repoRoot } from './markdown.js';

export const TS_LANGS = new Set(['ts', 'typescript']);

/** The package's exports (package.json), as the sources they are built from. */
const EXPORT_SOURCES: Record<string, string> = {
  verbtree: 'src/index.ts',
  'verbtree/capabilities': 'capabilities/index.ts',
  'verbtree/worlds': 'src/worlds.ts',
  'verbtree/sim': 'src/sim.ts',
  'verbtree/testing': 'src/testing/index.ts',
  'verbtree/mineflayer': 'src/mineflayer-plugin.ts',
};

export function isFragment(block: CodeBlock): boolean {
  return block.marks.includes('fragment');
}

/** Syntax errors of a block, as `file:line: message` (for fragments, which are not typechecked). */
export function parseProblems(block: CodeBlock): string[] {
  const source = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const diagnostics = (source as unknown as { parseDiagnostics: readonly ts.Diagnostic[] }).parseDiagnostics;
  return diagnostics.map((d) => {
    const { line } = source.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${block.file}:${block.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** The name a block's module gets, from which the errors are mapped back to the doc. */
function moduleName(block: CodeBlock): string {
  return `${block.file.replace(/[^\w]+/g, '_')}_${block.line}.ts`;
}

/** The repository's compiler options, with `verbtree` and its subpaths mapped to the exports' sources. */
function compilerOptions(): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(repoRoot, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  )!;
  const paths = Object.fromEntries(
    Object.entries(EXPORT_SOURCES).map(([name, source]) => [name, [join(repoRoot, source)]]),
  );
  return { ...config.options, paths, noEmit: true };
}

/**
 * Typechecks the blocks as one program and answers every error as `doc:line: message`, at the block's line in
 * the doc (a prelude's error at the fence's line). Only the blocks' own files are checked: the sources they
 * import are typechecked by `npm run typecheck`, and checking them again here would cost most of a minute.
 */
export function typecheckProblems(blocks: readonly CodeBlock[]): string[] {
  mkdirSync(join(repoRoot, '.scratch'), { recursive: true });
  const dir = mkdtempSync(join(repoRoot, '.scratch', 'docs-ts-'));
  try {
    const byFile = new Map<string, { block: CodeBlock; preludeLines: number }>();
    for (const block of blocks) {
      const prelude = block.prelude ? `${block.prelude}\n` : '';
      const file = join(dir, moduleName(block));
      writeFileSync(file, `${prelude}${block.code}\nexport {};\n`);
      byFile.set(file, { block, preludeLines: prelude.split('\n').length - 1 });
    }
    const program = ts.createProgram([...byFile.keys()], compilerOptions());
    return [...byFile].flatMap(([file, { block, preludeLines }]) => {
      const source = program.getSourceFile(file)!;
      const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      return diagnostics.map((d) => {
        const inBlock = source.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 - preludeLines;
        const line = inBlock >= 1 ? block.line + inBlock : block.line;
        return `${block.file}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
