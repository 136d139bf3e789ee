/**
 * What the docs test reads of the README and the guides: their fenced code blocks (with the language, the marks
 * after it and an optional hidden prelude), their headings as GitHub anchors, and their relative links.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

export interface DocFile {
  /** Relative to the repository root, e.g. `docs/fleet.md`. */
  path: string;
  text: string;
}

export interface CodeBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's language, lower case (`ts`, `sh`, `json`, …; empty when none). */
  lang: string;
  /** Words after the language (```ts fragment → ['fragment']). */
  marks: string[];
  code: string;
  /** `<!-- ts-prelude: … -->` right above the fence: compiled in front of the block, not shown to readers. */
  prelude?: string;
}

/** The README and every guide under docs/ (not docs/api, TypeDoc's output). */
export function docFiles(): DocFile[] {
  const guides = readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(repoRoot, 'docs', name));
  return [join(repoRoot, 'README.md'), ...guides].map((full) => ({
    path: relative(repoRoot, full),
    text: readFileSync(full, 'utf8'),
  }));
}

const FENCE = /^(`{3,})\s*([^\s`]*)\s*(.*)$/;
const PRELUDE_START = '<!-- ts-prelude:';

/** The prelude comment that ends on the line right above line `fence`, if any. */
function preludeAbove(lines: readonly string[], fence: number): string | undefined {
  if (fence === 0 || !lines[fence - 1]!.trimEnd().endsWith('-->')) return undefined;
  let start = fence - 1;
  while (start > 0 && !lines[start]!.includes(PRELUDE_START)) start--;
  const comment = lines.slice(start, fence).join('\n');
  const from = comment.indexOf(PRELUDE_START);
  return from < 0 ? undefined : comment.slice(from + PRELUDE_START.length, comment.lastIndexOf('-->')).trim();
}

export function codeBlocks(doc: DocFile): CodeBlock[] {
  const lines = doc.text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const close = lines.findIndex((line, j) => j > i && line.startsWith(open[1]!) && line.trim() === open[1]);
    if (close < 0) throw new Error(`${doc.path}:${i + 1}: a code fence that is never closed`);
    const prelude = preludeAbove(lines, i);
    blocks.push({
      file: doc.path,
      line: i + 1,
      lang: open[2]!.toLowerCase(),
      marks: open[3]!.split(/\s+/).filter(Boolean),
      code: lines.slice(i + 1, close).join('\n'),
      ...(prelude === undefined ? {} : { prelude }),
    });
    i = close;
  }
  return blocks;
}

/** The lines outside code blocks, where links and headings live: `text` without its inline code, `raw` with it. */
export function proseLines(doc: DocFile): { line: number; text: string; raw: string }[] {
  const out: { line: number; text: string; raw: string }[] = [];
  let fence: string | undefined;
  doc.text.split('\n').forEach((text, index) => {
    const open = FENCE.exec(text);
    if (fence === undefined && open) fence = open[1];
    else if (fence !== undefined && text.trim() === fence) fence = undefined;
    else if (fence === undefined) out.push({ line: index + 1, text: text.replace(/`[^`]*`/g, '``'), raw: text });
  });
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(doc: DocFile): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const text of doc.text.split('\n')) {
    const open = FENCE.exec(text);
    if (fence === undefined && open) fence = open[1];
    else if (fence !== undefined && text.trim() === fence) fence = undefined;
    const heading = fence === undefined ? /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(text) : null;
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

export interface Link {
  file: string;
  line: number;
  target: string;
}

/** Links and images whose target is inside the repository (no scheme): `[text](docs/x.md#part)`. */
export function relativeLinks(doc: DocFile): Link[] {
  return proseLines(doc).flatMap(({ line, text }) =>
    [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ file: doc.path, line, target })),
  );
}
