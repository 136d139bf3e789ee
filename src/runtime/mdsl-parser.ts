import {
  NODE_TYPES,
  isComposite,
  isDecorator,
  type AttributeDefinition,
  type NodeArgument,
  type NodeType,
  type TreeNodeDefinition,
} from './tree-definition.js';

/**
 * An MDSL parser that mirrors mistreevous 4.3.1's grammar but keeps the line of
 * every node, because mistreevous's own parser reports errors without one.
 */

interface Token {
  text: string;
  line: number;
  quoted: boolean;
}

export class MdslSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'MdslSyntaxError';
  }
}

const PUNCTUATION = new Set(['(', ')', '{', '}', '[', ']', ',']);
const ATTRIBUTE_KINDS = ['while', 'until', 'entry', 'exit', 'step'] as const;

function tokenise(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (char === '\n') {
      line++;
      i++;
    } else if (/\s/.test(char)) {
      i++;
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) throw new MdslSyntaxError(line, 'unterminated comment: add the closing */');
      line += countNewlines(source.slice(i, end));
      i = end + 2;
    } else if (char === '"') {
      const start = i;
      i++;
      while (i < source.length && source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
      if (i >= source.length) throw new MdslSyntaxError(line, 'unterminated string: add the closing "');
      const raw = source.slice(start + 1, i);
      tokens.push({ text: raw.replace(/\\"/g, '"'), line, quoted: true });
      line += countNewlines(raw);
      i++;
    } else if (PUNCTUATION.has(char)) {
      tokens.push({ text: char, line, quoted: false });
      i++;
    } else {
      const start = i;
      while (i < source.length && !/\s/.test(source[i]!) && !PUNCTUATION.has(source[i]!) && source[i] !== '"' && !source.startsWith('/*', i)) i++;
      tokens.push({ text: source.slice(start, i), line, quoted: false });
    }
  }
  return tokens;
}

function countNewlines(text: string): number {
  let count = 0;
  for (const char of text) if (char === '\n') count++;
  return count;
}

type ParsedArgument = { value: NodeArgument; identifier: boolean; integer: boolean; line: number };

class Parser {
  private position = 0;
  constructor(private readonly tokens: Token[]) {}

  atEnd(): boolean {
    return this.position >= this.tokens.length;
  }

  offset(): number {
    return this.position;
  }

  skipToNextRoot(after: number): void {
    this.position = after + 1;
    while (!this.atEnd() && (this.tokens[this.position]!.quoted || this.tokens[this.position]!.text.toLowerCase() !== 'root')) this.position++;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private lastLine(): number {
    return this.tokens[Math.min(this.position, this.tokens.length - 1)]?.line ?? 1;
  }

  private next(expected?: string): Token {
    const token = this.tokens[this.position];
    if (!token) throw new MdslSyntaxError(this.lastLine(), `unexpected end of definition${expected ? `: expected '${expected}'` : ''}`);
    if (expected !== undefined && (token.quoted || token.text.toLowerCase() !== expected)) {
      throw new MdslSyntaxError(token.line, `expected '${expected}' but found '${token.text}'`);
    }
    this.position++;
    return token;
  }

  parseRoot(): TreeNodeDefinition {
    const token = this.next();
    if (token.quoted || token.text.toLowerCase() !== 'root') {
      throw new MdslSyntaxError(token.line, `expected 'root' at the top level but found '${token.text}'`);
    }
    return this.parseNodeBody('root', token.line);
  }

  private parseNode(): TreeNodeDefinition {
    const token = this.next();
    const type = token.quoted ? undefined : NODE_TYPES.find((t) => t === token.text.toLowerCase());
    if (!type) throw new MdslSyntaxError(token.line, `unknown node type '${token.text}' (node types: ${NODE_TYPES.filter((t) => t !== 'root').join(', ')})`);
    if (type === 'root') throw new MdslSyntaxError(token.line, 'a root node cannot be the child of another node');
    return this.parseNodeBody(type, token.line);
  }

  private parseNodeBody(type: NodeType, line: number): TreeNodeDefinition {
    const args = this.peekIs('[') ? this.parseArguments('[', ']') : [];
    const node: TreeNodeDefinition = { type, line, args: [], attributes: [], children: [] };
    switch (type) {
      case 'root':
        if (args.length > 1 || (args[0] && !args[0].identifier)) throw new MdslSyntaxError(line, 'expected a single root name, e.g. root [helper]');
        if (args[0]) node.name = String(args[0].value);
        break;
      case 'action':
      case 'condition': {
        const [callName, ...rest] = args;
        if (!callName?.identifier) throw new MdslSyntaxError(line, `expected ${type} name, e.g. ${type} [name, "arg"]`);
        const bad = rest.find((arg) => arg.identifier);
        if (bad) throw new MdslSyntaxError(bad.line, `invalid ${type} argument '${String(bad.value)}': quote strings ("${String(bad.value)}") or use $name for a step argument`);
        node.name = String(callName.value);
        node.args = rest.map((arg) => arg.value);
        break;
      }
      case 'branch':
        if (args.length !== 1 || !args[0]!.identifier) throw new MdslSyntaxError(line, 'expected a single branch name, e.g. branch [helper]');
        node.name = String(args[0]!.value);
        return node;
      default:
        node.args = this.numericArguments(type, args, line);
    }
    node.attributes = this.parseAttributes();
    if (type === 'action' || type === 'condition' || type === 'wait') return node;
    this.next('{');
    while (!this.peekIs('}')) {
      if (this.atEnd()) throw new MdslSyntaxError(line, `the ${type} node opened here has no closing '}'`);
      node.children.push(this.parseNode());
    }
    this.next('}');
    if (isDecorator(type) && node.children.length !== 1) throw new MdslSyntaxError(line, `a ${type} node must have exactly one child node (found ${node.children.length})`);
    if (isComposite(type) && node.children.length === 0) throw new MdslSyntaxError(line, `a ${type} node must have at least one child node`);
    if (type === 'lotto' && node.args.length > 0 && node.args.length !== node.children.length) {
      throw new MdslSyntaxError(line, `a lotto node needs one weight per child (${node.args.length} weights, ${node.children.length} children)`);
    }
    return node;
  }

  private numericArguments(type: NodeType, args: ParsedArgument[], line: number): NodeArgument[] {
    if (args.length === 0) return [];
    const accepts = { repeat: 2, retry: 2, wait: 2, lotto: Infinity } as Partial<Record<NodeType, number>>;
    const max = accepts[type];
    if (max === undefined) throw new MdslSyntaxError(line, `a ${type} node takes no [arguments]`);
    if (args.length > max) throw new MdslSyntaxError(line, `a ${type} node takes at most ${max} arguments`);
    for (const arg of args) {
      if (typeof arg.value !== 'number' || !arg.integer || arg.value < 0) {
        throw new MdslSyntaxError(arg.line, `${type} node arguments must be non-negative integers, got '${String(arg.value)}'`);
      }
    }
    if (args.length === 2 && (args[0]!.value as number) > (args[1]!.value as number)) {
      throw new MdslSyntaxError(line, `${type} node range [${String(args[0]!.value)}, ${String(args[1]!.value)}] has min above max`);
    }
    return args.map((arg) => arg.value);
  }

  private parseAttributes(): AttributeDefinition[] {
    const attributes: AttributeDefinition[] = [];
    for (let token = this.peek(); token && !token.quoted; token = this.peek()) {
      const kind = ATTRIBUTE_KINDS.find((k) => k === token.text.toLowerCase());
      if (!kind) break;
      this.position++;
      if (attributes.some((a) => a.kind === kind)) throw new MdslSyntaxError(token.line, `duplicate '${kind}' attribute on one node (wrap the node in a sequence to add another)`);
      if (!this.peekIs('(')) throw new MdslSyntaxError(token.line, `expected '(' after '${kind}', e.g. ${kind}(name)`);
      const [callName, ...rest] = this.parseArguments('(', ')');
      if (!callName?.identifier) throw new MdslSyntaxError(token.line, `expected a function name as the first argument of ${kind}(...)`);
      const bad = rest.find((arg) => arg.identifier);
      if (bad) throw new MdslSyntaxError(bad.line, `invalid ${kind} argument '${String(bad.value)}': quote strings ("${String(bad.value)}")`);
      let succeedOnAbort = false;
      if ((kind === 'while' || kind === 'until') && this.peek()?.text.toLowerCase() === 'then') {
        this.position++;
        const outcome = this.next();
        if (!['succeed', 'fail'].includes(outcome.text.toLowerCase())) throw new MdslSyntaxError(outcome.line, `expected 'succeed' or 'fail' after 'then', found '${outcome.text}'`);
        succeedOnAbort = outcome.text.toLowerCase() === 'succeed';
      }
      attributes.push({ kind, call: String(callName.value), args: rest.map((arg) => arg.value), succeedOnAbort, line: token.line });
    }
    return attributes;
  }

  private peekIs(text: string): boolean {
    const token = this.peek();
    return token !== undefined && !token.quoted && token.text === text;
  }

  private parseArguments(open: string, close: string): ParsedArgument[] {
    const opening = this.next(open);
    const args: ParsedArgument[] = [];
    if (this.peekIs(close)) {
      this.position++;
      return args;
    }
    for (;;) {
      const token = this.next();
      if (!token.quoted && PUNCTUATION.has(token.text)) throw new MdslSyntaxError(token.line, `expected an argument but found '${token.text}'`);
      args.push(toArgument(token));
      const separator = this.tokens[this.position];
      if (!separator) throw new MdslSyntaxError(opening.line, `'${open}' opened here has no closing '${close}'`);
      this.position++;
      if (separator.text === close && !separator.quoted) return args;
      if (separator.text !== ',' || separator.quoted) throw new MdslSyntaxError(separator.line, `expected ',' or '${close}' but found '${separator.text}'`);
    }
  }
}

function toArgument(token: Token): ParsedArgument {
  const base = { identifier: false, integer: false, line: token.line };
  if (token.quoted) return { ...base, value: token.text };
  const text = token.text;
  if (text === 'null') return { ...base, value: null };
  if (text === 'true' || text === 'false') return { ...base, value: text === 'true' };
  if (text.trim() !== '' && !Number.isNaN(Number(text))) {
    const value = Number(text);
    return { ...base, value, integer: Number.isInteger(value) };
  }
  if (/^\$[_a-zA-Z][_a-zA-Z0-9]*$/.test(text)) return { ...base, value: { $: text.slice(1) } };
  return { ...base, value: text, identifier: true };
}

/** Parses an MDSL source into its root nodes; throws MdslSyntaxError (with a line) at the first syntax error. */
export function parseMdsl(source: string): TreeNodeDefinition[] {
  const { roots, errors } = parseMdslCollecting(source);
  if (errors[0]) throw errors[0];
  return roots;
}

/**
 * Parses every root it can: after a syntax error it resumes at the next `root`,
 * so each root reports its first syntax error.
 */
export function parseMdslCollecting(source: string): { roots: TreeNodeDefinition[]; errors: MdslSyntaxError[] } {
  let tokens: Token[];
  try {
    tokens = tokenise(source);
  } catch (error) {
    if (error instanceof MdslSyntaxError) return { roots: [], errors: [error] };
    throw error;
  }
  const parser = new Parser(tokens);
  const roots: TreeNodeDefinition[] = [];
  const errors: MdslSyntaxError[] = [];
  while (!parser.atEnd()) {
    const start = parser.offset();
    try {
      roots.push(parser.parseRoot());
    } catch (error) {
      if (!(error instanceof MdslSyntaxError)) throw error;
      errors.push(error);
      parser.skipToNextRoot(start);
    }
  }
  if (roots.length === 0 && errors.length === 0) errors.push(new MdslSyntaxError(1, 'the file defines no tree: expected root { ... }'));
  return { roots, errors };
}
