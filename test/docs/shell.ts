/**
 * The commands a shell block of the docs runs, split into words as a shell would (quotes, `&&`, `|`, `;`,
 * leading `VAR=value`), so each can be checked against the CLI's own `--help` and package.json.
 */
import { type CodeBlock, type DocFile, proseLines } from './markdown.js';

export interface ShellCommand {
  file: string;
  line: number;
  /** The words of one simple command, without its leading environment assignments. */
  words: string[];
}

/** The command lines of a block: a console block's `$ ` lines, or every non-comment line of sh/bash. */
function commandLines(block: CodeBlock): { line: number; text: string }[] {
  return block.code
    .split('\n')
    .map((text, index) => ({ line: block.line + 1 + index, text }))
    .filter(({ text }) => (block.lang === 'console' ? text.startsWith('$ ') : text.trim() !== ''))
    .map(({ line, text }) => ({ line, text: block.lang === 'console' ? text.slice(2) : text }));
}

/** Splits a line into words and operators; a `#` that starts a word begins a comment. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const push = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "'" || char === '"') {
      const end = text.indexOf(char, i + 1);
      word = (word ?? '') + text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (/\s/.test(char)) push();
    else if (char === '#' && word === undefined) break;
    else if ('|;&'.includes(char)) {
      push();
      words.push(text[i + 1] === char ? char + char : char);
      if (text[i + 1] === char) i++;
    } else word = (word ?? '') + char;
  }
  push();
  return words;
}

const OPERATORS = new Set(['|', '||', '&&', ';', '&']);

export function shellCommands(block: CodeBlock): ShellCommand[] {
  return commandLines(block).flatMap(({ line, text }) => {
    const commands: ShellCommand[] = [];
    let words: string[] = [];
    for (const word of [...shellWords(text), ';']) {
      if (!OPERATORS.has(word)) {
        if (words.length > 0 || !/^[A-Z_][A-Z0-9_]*=/.test(word)) words.push(word);
        continue;
      }
      if (words.length > 0) commands.push({ file: block.file, line, words });
      words = [];
    }
    return commands;
  });
}

export const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console']);

/** `verbtree …` or `npx verbtree …`: the words after `verbtree`, or undefined for another command. */
export function verbtreeArgs(words: readonly string[]): string[] | undefined {
  const start = words[0] === 'npx' ? 1 : 0;
  return words[start] === 'verbtree' ? words.slice(start + 1) : undefined;
}

/** `npm run X`, `npm start`, `npm test`: the script it runs, or undefined for another command. */
export function npmScript(words: readonly string[]): string | undefined {
  if (words[0] !== 'npm') return undefined;
  if (words[1] === 'run' || words[1] === 'run-script') return words[2];
  return words[1] === 'start' || words[1] === 'test' ? words[1] : undefined;
}

/** Every word that names a file under examples/ (an option's value included: `--steps=examples/x.json`). */
export function examplePaths(words: readonly string[]): string[] {
  return words
    .map((word) => word.replace(/^--[\w-]+=/, '').replace(/^@/, ''))
    .filter((word) => word.startsWith('examples/'));
}

export interface TranscriptEntry {
  file: string;
  line: number;
  words: string[];
  /** The lines the doc shows after the command, up to the next `$ ` line or blank line. */
  output: string;
}

/** A console block as commands and the output the doc says each prints. */
export function consoleTranscript(block: CodeBlock): TranscriptEntry[] {
  const lines = block.code.split('\n');
  return lines.flatMap((text, index) => {
    if (!text.startsWith('$ ')) return [];
    const rest = lines.slice(index + 1);
    const end = rest.findIndex((line) => line.startsWith('$ ') || line.trim() === '');
    const output = (end < 0 ? rest : rest.slice(0, end)).join('\n');
    return [{ file: block.file, line: block.line + 1 + index, words: shellWords(text.slice(2)), output }];
  });
}

/**
 * Commands quoted inline in the prose (`` `verbtree health check --journal $J` ``, `` `npm run bench -- truth` ``),
 * except templates with a placeholder (`` `verbtree <command>` ``).
 */
export function inlineCommands(doc: DocFile): ShellCommand[] {
  return proseLines(doc).flatMap(({ line, raw }) =>
    [...raw.matchAll(/`((?:npx )?verbtree [^`]+|npm run [^`]+)`/g)]
      .map((match) => match[1]!)
      .filter((command) => !command.includes('<'))
      .map((command) => ({ file: doc.path, line, words: shellWords(command) })),
  );
}
