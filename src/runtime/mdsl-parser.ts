import { MdslSyntaxError, PUNCTUATION, toArgument, tokenise, type ParsedArgument, type Token } from './mdsl-tokens.js';
import {
  MAX_TREE_DEPTH,
  NODE_TYPES,
  isComposite,
  isDecorator,
  type AttributeDefinition,
  type NodeArgument,
  type NodeType,
  type TreeNodeDefinition,
} from './tree-definition.js';

export { MdslSyntaxError } from './mdsl-tokens.js';

/**
 * An MDSL parser that reads mistreevous 4.3.1's grammar as mistreevous does but
 * keeps the line of every node, because mistreevous's own parser reports errors
 * without one. Where it differs on purpose (docs/capabilities.md, "How verbtree reads tree
 * definitions"), its error says why.
 */

const ATTRIBUTE_KINDS = ['while', 'until', 'entry', 'exit', 'step'] as const;
/** Mistreevous takes either bracket kind around any argument list. */
const CLOSING: Record<string, string> = { '[': ']', '(': ')' };

/** A node whose '{' is open, with where it starts, to guess which one a missing '}' belongs to. */
interface OpenNode {
  type: NodeType;
  line: number;
  indent: number;
}

class Parser {
  private position = 0;
  /** The first node closed by a '}' that lines up with an outer node: likely the one missing its own '}'. */
  private misalignedClose: { node: OpenNode; closeLine: number } | undefined;

  constructor(private readonly tokens: Token[]) {}

  atEnd(): boolean {
    return this.position >= this.tokens.length;
  }

  offset(): number {
    return this.position;
  }

  skipToNextRoot(after: number): void {
    this.position = after + 1;
    while (
      !this.atEnd() &&
      (this.tokens[this.position]!.quoted || this.tokens[this.position]!.text.toLowerCase() !== 'root')
    )
      this.position++;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private peekWord(): string | undefined {
    const token = this.peek();
    return token && !token.quoted ? token.text.toLowerCase() : undefined;
  }

  private lastLine(): number {
    return this.tokens[Math.min(this.position, this.tokens.length - 1)]?.line ?? 1;
  }

  private next(expected?: string): Token {
    const token = this.tokens[this.position];
    if (!token)
      throw new MdslSyntaxError(
        this.lastLine(),
        `unexpected end of definition${expected ? `: expected '${expected}'` : ''}`,
      );
    if (expected !== undefined && (token.quoted || token.text.toLowerCase() !== expected)) {
      throw new MdslSyntaxError(token.line, `expected '${expected}' but found '${token.text}'`);
    }
    this.position++;
    return token;
  }

  parseRoot(): TreeNodeDefinition {
    this.misalignedClose = undefined;
    const token = this.next();
    if (token.quoted || token.text.toLowerCase() !== 'root') {
      throw new MdslSyntaxError(token.line, `expected 'root' at the top level but found '${token.text}'`);
    }
    return this.parseNodeBody('root', token, 1);
  }

  private parseNode(depth: number): TreeNodeDefinition {
    const token = this.next();
    const type = token.quoted ? undefined : NODE_TYPES.find((t) => t === token.text.toLowerCase());
    if (!type) {
      const attribute = ATTRIBUTE_KINDS.find((kind) => kind === token.text.toLowerCase());
      const hint =
        attribute && !token.quoted
          ? ` ('${attribute}' is an attribute: it follows a node's [arguments], and a branch node takes none)`
          : '';
      throw new MdslSyntaxError(
        token.line,
        `unknown node type '${token.text}'${hint} (node types: ${NODE_TYPES.filter((t) => t !== 'root').join(', ')})`,
      );
    }
    if (type === 'root') throw new MdslSyntaxError(token.line, 'a root node cannot be the child of another node');
    if (depth > MAX_TREE_DEPTH) {
      throw new MdslSyntaxError(
        token.line,
        `nodes nest deeper than ${MAX_TREE_DEPTH} levels here: split the tree with branch [name] into named roots or other files`,
      );
    }
    return this.parseNodeBody(type, token, depth);
  }

  private parseNodeBody(type: NodeType, keyword: Token, depth: number): TreeNodeDefinition {
    const line = keyword.line;
    const args = this.peekArgumentList() ? this.parseArguments() : [];
    const node: TreeNodeDefinition = { type, line, args: [], attributes: [], children: [] };
    switch (type) {
      case 'root':
        if (args.length > 1 || (args[0] && !args[0].identifier))
          throw new MdslSyntaxError(line, 'expected a single root name, e.g. root [helper]');
        if (args[0]) node.name = argumentText(args[0].value);
        break;
      case 'action':
      case 'condition': {
        const [callName, ...rest] = args;
        if (!callName?.identifier) throw new MdslSyntaxError(line, `expected ${type} name, e.g. ${type} [name, "arg"]`);
        const bad = rest.find((arg) => arg.identifier);
        if (bad)
          throw new MdslSyntaxError(
            bad.line,
            `invalid ${type} argument '${argumentText(bad.value)}': quote strings ("${argumentText(bad.value)}") or use $name for a step argument`,
          );
        node.name = argumentText(callName.value);
        node.args = rest.map((arg) => arg.value);
        break;
      }
      case 'branch':
        if (args.length !== 1 || !args[0]!.identifier)
          throw new MdslSyntaxError(line, 'expected a single branch name, e.g. branch [helper]');
        node.name = argumentText(args[0]!.value);
        if (this.peekWord() !== undefined && (ATTRIBUTE_KINDS as readonly string[]).includes(this.peekWord()!)) {
          throw new MdslSyntaxError(
            this.peek()!.line,
            `a branch node takes no attributes: put the ${this.peekWord()}(...) on a node around it`,
          );
        }
        return node;
      default:
        node.args = this.numericArguments(type, args, line);
    }
    node.attributes = this.parseAttributes();
    if (type === 'action' || type === 'condition' || type === 'wait') return node;
    this.next('{');
    const open: OpenNode = { type, line, indent: keyword.indent };
    while (!this.peekIs('}')) {
      if (this.atEnd()) throw this.unclosed(open);
      node.children.push(this.parseNode(depth + 1));
    }
    const close = this.next('}');
    if (close.firstOnLine && close.indent < open.indent && !this.misalignedClose)
      this.misalignedClose = { node: open, closeLine: close.line };
    if (isDecorator(type) && node.children.length !== 1)
      throw new MdslSyntaxError(
        line,
        `a ${type} node must have exactly one child node (found ${node.children.length})`,
      );
    if (isComposite(type) && node.children.length === 0)
      throw new MdslSyntaxError(line, `a ${type} node must have at least one child node`);
    if (type === 'lotto' && node.args.length > 0 && node.args.length !== node.children.length) {
      throw new MdslSyntaxError(
        line,
        `a lotto node needs one weight per child (${node.args.length} weights, ${node.children.length} children)`,
      );
    }
    return node;
  }

  /**
   * The input ended inside `open`. If an earlier '}' lined up with an outer node,
   * the node it closed is the likelier culprit: its own '}' is the one missing.
   */
  private unclosed(open: OpenNode): MdslSyntaxError {
    const suspect = this.misalignedClose;
    if (suspect) {
      return new MdslSyntaxError(
        suspect.node.line,
        `the ${suspect.node.type} node opened here has no closing '}' (the '}' on line ${suspect.closeLine} lines up with an outer node, so the ${open.type} node at line ${open.line} is left open)`,
      );
    }
    return new MdslSyntaxError(open.line, `the ${open.type} node opened here has no closing '}'`);
  }

  private numericArguments(type: NodeType, args: ParsedArgument[], line: number): NodeArgument[] {
    if (args.length === 0) return [];
    const accepts = { repeat: 2, retry: 2, wait: 2, lotto: Infinity } as Partial<Record<NodeType, number>>;
    const max = accepts[type];
    if (max === undefined) throw new MdslSyntaxError(line, `a ${type} node takes no [arguments]`);
    if (args.length > max)
      throw new MdslSyntaxError(line, `a ${type} node takes at most ${max} arguments: [n] or [min, max]`);
    for (const arg of args) {
      if (typeof arg.value !== 'number' || !arg.integer || arg.value < 0) {
        const exponent =
          typeof arg.value === 'number' && Number.isInteger(arg.value)
            ? ` (write ${arg.value} in plain digits: mistreevous does not read an exponent as a whole number)`
            : '';
        throw new MdslSyntaxError(
          arg.line,
          `${type} node arguments must be non-negative whole numbers, got '${argumentText(arg.value)}'${exponent}`,
        );
      }
    }
    // Two lotto arguments are two weights, not a range.
    if (type !== 'lotto' && args.length === 2 && (args[0]!.value as number) > (args[1]!.value as number)) {
      throw new MdslSyntaxError(
        line,
        `${type} node range [${argumentText(args[0]!.value)}, ${argumentText(args[1]!.value)}] has min above max`,
      );
    }
    return args.map((arg) => arg.value);
  }

  private parseAttributes(): AttributeDefinition[] {
    const attributes: AttributeDefinition[] = [];
    for (let token = this.peek(); token && !token.quoted; token = this.peek()) {
      const kind = ATTRIBUTE_KINDS.find((k) => k === token.text.toLowerCase());
      if (!kind) break;
      this.position++;
      if (attributes.some((a) => a.kind === kind))
        throw new MdslSyntaxError(
          token.line,
          `duplicate '${kind}' attribute on one node (wrap the node in a sequence to add another)`,
        );
      if (!this.peekArgumentList())
        throw new MdslSyntaxError(token.line, `expected '(' after '${kind}', e.g. ${kind}(name)`);
      const [callName, ...rest] = this.parseArguments();
      if (!callName?.identifier)
        throw new MdslSyntaxError(token.line, `expected a function name as the first argument of ${kind}(...)`);
      const bad = rest.find((arg) => arg.identifier);
      if (bad)
        throw new MdslSyntaxError(
          bad.line,
          `invalid ${kind} argument '${argumentText(bad.value)}': quote strings ("${argumentText(bad.value)}")`,
        );
      let succeedOnAbort = false;
      if ((kind === 'while' || kind === 'until') && this.peekWord() === 'then') {
        this.position++;
        const outcome = this.next();
        const word = outcome.quoted ? undefined : outcome.text.toLowerCase();
        if (word !== 'succeed' && word !== 'fail')
          throw new MdslSyntaxError(
            outcome.line,
            `expected succeed or fail (unquoted) after 'then', found ${outcome.quoted ? `"${outcome.text}"` : `'${outcome.text}'`}`,
          );
        succeedOnAbort = word === 'succeed';
      }
      attributes.push({
        kind,
        call: argumentText(callName.value),
        args: rest.map((arg) => arg.value),
        succeedOnAbort,
        line: token.line,
      });
    }
    return attributes;
  }

  private peekIs(text: string): boolean {
    const token = this.peek();
    return token !== undefined && !token.quoted && token.text === text;
  }

  private peekArgumentList(): boolean {
    return this.peekIs('[') || this.peekIs('(');
  }

  /** `[a, b]` or `(a, b)`; a trailing comma after an argument is allowed, as in mistreevous. */
  private parseArguments(): ParsedArgument[] {
    const opening = this.next();
    const close = CLOSING[opening.text]!;
    const args: ParsedArgument[] = [];
    if (this.peekIs(close)) {
      this.position++;
      return args;
    }
    for (;;) {
      const token = this.next();
      if (!token.quoted && PUNCTUATION.has(token.text)) {
        throw new MdslSyntaxError(
          token.line,
          `expected an argument but found '${token.text}' (mistreevous would take a lone '${token.text}' as a name; verbtree does not)`,
        );
      }
      args.push(toArgument(token));
      const separator = this.tokens[this.position];
      if (!separator)
        throw new MdslSyntaxError(opening.line, `'${opening.text}' opened here has no closing '${close}'`);
      this.position++;
      if (separator.text === close && !separator.quoted) return args;
      if (separator.text !== ',' || separator.quoted)
        throw new MdslSyntaxError(separator.line, `expected ',' or '${close}' but found '${separator.text}'`);
      if (this.peekIs(close)) {
        this.position++;
        return args;
      }
    }
  }
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
  if (roots.length === 0 && errors.length === 0)
    errors.push(new MdslSyntaxError(1, 'the file defines no tree: expected root { ... }'));
  return { roots, errors };
}

/** An argument as written: a step argument reference as `$name`, anything else as its text. */
function argumentText(value: NodeArgument): string {
  return value !== null && typeof value === 'object' ? `$${value.$}` : String(value);
}
