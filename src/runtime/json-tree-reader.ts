import { type Node as JsonNode, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { closestMatch } from '../registry/suggest.js';
import type { LocationMap } from './mistreevous-definition.js';
import { sourceLines, type SourceLines } from './source-lines.js';
import {
  MAX_TREE_DEPTH,
  NODE_TYPES,
  RANGE_KEYS,
  isComposite,
  isDecorator,
  type AttributeDefinition,
  type NodeArgument,
  type NodeType,
  type TreeNodeDefinition,
} from './tree-definition.js';

/** A problem in a JSON tree definition, at the line of the key or value at fault. */
export class JsonTreeError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'JsonTreeError';
  }
}

const ATTRIBUTE_KINDS = ['while', 'until', 'entry', 'exit', 'step'] as const;

/** The keys each node type takes besides "type" and its attributes: mistreevous reads no others. */
const KEYS: Record<NodeType, readonly string[]> = {
  root: ['id', 'child'],
  succeed: ['child'],
  fail: ['child'],
  flip: ['child'],
  repeat: ['iterations', 'child'],
  retry: ['attempts', 'child'],
  sequence: ['children'],
  selector: ['children'],
  parallel: ['children'],
  race: ['children'],
  all: ['children'],
  lotto: ['weights', 'children'],
  action: ['call', 'args'],
  condition: ['call', 'args'],
  wait: ['duration'],
  branch: ['ref'],
};

export interface JsonTreeDocument {
  roots: TreeNodeDefinition[];
  /** The document as mistreevous would get it, for its own validateDefinition. */
  document: unknown;
  locations: LocationMap;
}

/**
 * Reads a mistreevous JSON definition with every check mistreevous's
 * validateDefinition makes, each at the line of the key at fault, and refuses
 * keys mistreevous would silently ignore (a typo there would change the tree).
 */
export function readJsonTree(source: string): JsonTreeDocument {
  // A UTF-8 byte order mark is not JSON; a space in its place keeps every offset.
  const text = source.charCodeAt(0) === 0xfeff ? ` ${source.slice(1)}` : source;
  const lines = sourceLines(text);
  refuseDeepNesting(text, lines);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (first || !root) {
    if (!first) throw new JsonTreeError(1, 'invalid JSON: the file is empty');
    const what = printParseErrorCode(first.error)
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase();
    throw new JsonTreeError(
      lines.lineAt(first.offset),
      `invalid JSON at column ${lines.columnAt(first.offset)}: ${what}`,
    );
  }
  const reader = new Reader(lines);
  const tops = root.type === 'array' ? (root.children ?? []) : [root];
  const roots = tops.map((top) => reader.node(top, 0));
  return { roots, document: reader.valueOf(root), locations: reader.locations };
}

/** jsonc-parser recurses per level; refuse what would overflow it (or any later walk) before parsing. */
function refuseDeepNesting(text: string, lines: SourceLines): void {
  // A node is one object, plus one array when it has "children".
  const limit = 2 * MAX_TREE_DEPTH + 2;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (char === '{' || char === '[') {
      if (++depth > limit)
        throw new JsonTreeError(
          lines.lineAt(i),
          `nodes nest deeper than ${MAX_TREE_DEPTH} levels here: split the tree with {"type": "branch", "ref": ...} into named roots or other files`,
        );
    } else if (char === '}' || char === ']') {
      depth--;
    }
  }
}

class Reader {
  readonly locations: LocationMap = new WeakMap();

  constructor(private readonly lines: SourceLines) {}

  private lineOf(json: JsonNode): number {
    return this.lines.lineAt(json.offset);
  }

  /** The property nodes of an object by key (the key's node's line is the property's). */
  private properties(json: JsonNode): Map<string, { key: JsonNode; value: JsonNode }> {
    const found = new Map<string, { key: JsonNode; value: JsonNode }>();
    for (const property of json.children ?? []) {
      const [key, value] = property.children as [JsonNode, JsonNode];
      const name = key.value as string;
      if (found.has(name))
        throw new JsonTreeError(
          this.lineOf(key),
          `"${name}" appears twice in one object; JSON keeps only the last, so remove one`,
        );
      found.set(name, { key, value });
    }
    return found;
  }

  node(json: JsonNode, depth: number): TreeNodeDefinition {
    if (json.type !== 'object')
      throw new JsonTreeError(this.lineOf(json), `expected a node object with a "type", found ${json.type}`);
    const props = this.properties(json);
    const typeProp = props.get('type');
    if (!typeProp)
      throw new JsonTreeError(this.lineOf(json), `a node needs a "type" (node types: ${NODE_TYPES.join(', ')})`);
    const line = this.lineOf(typeProp.key);
    const type = NODE_TYPES.find((t) => t === typeProp.value.value);
    if (!type) {
      const hint =
        typeof typeProp.value.value === 'string' ? closestMatch(typeProp.value.value, NODE_TYPES) : undefined;
      throw new JsonTreeError(
        line,
        `unknown node type ${JSON.stringify(typeProp.value.value ?? null)}${hint ? ` (did you mean "${hint}"?)` : ''} (node types: ${NODE_TYPES.join(', ')})`,
      );
    }
    if (depth === 0 && type !== 'root')
      throw new JsonTreeError(line, `expected a root node at the top level, found '${type}'`);
    if (depth > 0 && type === 'root') throw new JsonTreeError(line, 'a root node cannot be the child of another node');
    if (depth >= MAX_TREE_DEPTH)
      throw new JsonTreeError(
        line,
        `nodes nest deeper than ${MAX_TREE_DEPTH} levels here: split the tree with {"type": "branch", "ref": ...} into named roots or other files`,
      );
    const allowed = ['type', ...KEYS[type], ...(type === 'branch' ? [] : ATTRIBUTE_KINDS)];
    for (const [key, { key: keyNode }] of props)
      if (!allowed.includes(key)) throw new JsonTreeError(this.lineOf(keyNode), unknownKeyMessage(type, key, allowed));

    const node: TreeNodeDefinition = { type, line, args: [], attributes: this.attributes(type, props), children: [] };
    const name = type === 'root' ? props.get('id') : type === 'branch' ? props.get('ref') : props.get('call');
    const nameKey = type === 'root' ? 'id' : type === 'branch' ? 'ref' : 'call';
    if (name) node.name = this.nonEmptyString(name.value, `the "${nameKey}" of ${aNode(type)}`);
    else if (type === 'action' || type === 'condition' || type === 'branch')
      throw new JsonTreeError(
        line,
        `${aNode(type)} needs "${nameKey}", e.g. {"type": "${type}", "${nameKey}": "name"}`,
      );
    if (type === 'action' || type === 'condition') {
      const args = props.get('args');
      if (args) node.args = this.arguments(args.value, `the "args" of ${aNode(type)}`);
    } else if (type === 'repeat' || type === 'retry' || type === 'wait') {
      const range = props.get(RANGE_KEYS[type]);
      if (range) node.args = this.range(range.value, `"${RANGE_KEYS[type]}" of ${aNode(type)}`);
    }
    if (isDecorator(type)) {
      const child = props.get('child');
      if (!child) throw new JsonTreeError(line, `${aNode(type)} needs "child": one node object`);
      node.children = [this.node(child.value, depth + 1)];
    } else if (isComposite(type)) {
      const children = props.get('children');
      if (!children || children.value.type !== 'array' || (children.value.children ?? []).length === 0) {
        throw new JsonTreeError(
          children ? this.lineOf(children.key) : line,
          `${aNode(type)} needs "children": a non-empty array of node objects`,
        );
      }
      node.children = children.value.children!.map((child) => this.node(child, depth + 1));
      const weights = props.get('weights');
      if (weights) node.args = this.weights(weights, node.children.length);
    }
    return node;
  }

  private attributes(type: NodeType, props: Map<string, { key: JsonNode; value: JsonNode }>): AttributeDefinition[] {
    return ATTRIBUTE_KINDS.filter((kind) => props.has(kind)).map((kind) => {
      const { key, value } = props.get(kind)!;
      const line = this.lineOf(key);
      if (value.type !== 'object')
        throw new JsonTreeError(
          line,
          `the "${kind}" attribute of ${aNode(type)} must be an object, e.g. {"call": "name", "args": []}`,
        );
      const inner = this.properties(value);
      const allowed = kind === 'while' || kind === 'until' ? ['call', 'args', 'succeedOnAbort'] : ['call', 'args'];
      for (const [name, { key: innerKey }] of inner) {
        if (!allowed.includes(name))
          throw new JsonTreeError(
            this.lineOf(innerKey),
            `"${name}" is not a key of the "${kind}" attribute (keys: ${allowed.join(', ')}); mistreevous would ignore it`,
          );
      }
      const call = inner.get('call');
      if (!call) throw new JsonTreeError(line, `the "${kind}" attribute needs a "call" name`);
      const onAbort = inner.get('succeedOnAbort');
      if (onAbort && onAbort.value.type !== 'boolean')
        throw new JsonTreeError(this.lineOf(onAbort.key), `"succeedOnAbort" must be true or false`);
      return {
        kind,
        call: this.nonEmptyString(call.value, `the "call" of the "${kind}" attribute`),
        args: inner.get('args')
          ? this.arguments(inner.get('args')!.value, `the "args" of the "${kind}" attribute`)
          : [],
        succeedOnAbort: onAbort?.value.value === true,
        line,
      };
    });
  }

  private nonEmptyString(json: JsonNode, what: string): string {
    if (json.type !== 'string' || json.value === '')
      throw new JsonTreeError(this.lineOf(json), `${what} must be a non-empty string`);
    return json.value as string;
  }

  private arguments(json: JsonNode, what: string): NodeArgument[] {
    if (json.type !== 'array') throw new JsonTreeError(this.lineOf(json), `${what} must be an array`);
    return (json.children ?? []).map((arg) => {
      if (arg.type === 'string' || arg.type === 'number' || arg.type === 'boolean' || arg.type === 'null')
        return arg.value as NodeArgument;
      const props = arg.type === 'object' ? this.properties(arg) : undefined;
      const ref = props?.get('$');
      if (props?.size === 1 && ref)
        return { $: this.nonEmptyString(ref.value, 'a step argument reference {"$": "name"}') };
      throw new JsonTreeError(
        this.lineOf(arg),
        `${what}: each argument is a string, number, true/false, null or {"$": "name"} (a step argument)`,
      );
    });
  }

  private wholeNumbers(json: JsonNode, what: string): number[] {
    const values = json.type === 'array' ? (json.children ?? []) : [json];
    return values.map((value) => {
      if (value.type !== 'number' || !Number.isInteger(value.value) || (value.value as number) < 0) {
        throw new JsonTreeError(
          this.lineOf(value),
          `${what} must be a whole number >= 0 or [min, max] of two, got ${JSON.stringify(value.value ?? null)}`,
        );
      }
      return value.value as number;
    });
  }

  private range(json: JsonNode, what: string): number[] {
    const values = this.wholeNumbers(json, what);
    if (json.type === 'array' && values.length !== 2)
      throw new JsonTreeError(
        this.lineOf(json),
        `${what} must be one whole number or [min, max], got ${values.length} values`,
      );
    if (values.length === 2 && values[0]! > values[1]!)
      throw new JsonTreeError(this.lineOf(json), `${what} [${values[0]}, ${values[1]}] has min above max`);
    return values;
  }

  private weights(weights: { key: JsonNode; value: JsonNode }, children: number): number[] {
    if (weights.value.type !== 'array')
      throw new JsonTreeError(
        this.lineOf(weights.value),
        '"weights" of a lotto node must be an array, one whole number >= 0 per child',
      );
    const values = this.wholeNumbers(weights.value, '"weights" of a lotto node');
    if (values.length !== children)
      throw new JsonTreeError(
        this.lineOf(weights.key),
        `a lotto node needs one weight per child (${values.length} weights, ${children} children)`,
      );
    return values;
  }

  /** The plain value, remembering the line of each object and of each of its keys for mistreevous's messages. */
  valueOf(json: JsonNode): unknown {
    if (json.type === 'array') return (json.children ?? []).map((child) => this.valueOf(child));
    if (json.type !== 'object') return json.value;
    const value: Record<string, unknown> = {};
    const keys = new Map<string, number>();
    for (const property of json.children ?? []) {
      const [key, child] = property.children as [JsonNode, JsonNode];
      value[key.value as string] = this.valueOf(child);
      keys.set(key.value as string, this.lineOf(key));
    }
    this.locations.set(value, { line: keys.get('type') ?? this.lineOf(json), keys });
    return value;
  }
}

/** "an action node", "a flip node". */
function aNode(type: NodeType): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} node`;
}

function unknownKeyMessage(type: NodeType, key: string, allowed: string[]): string {
  const owners = NODE_TYPES.filter((t) => KEYS[t].includes(key));
  const belongs = owners.length > 0 ? ` ("${key}" belongs to ${owners.join('/')} nodes)` : '';
  const hint = owners.length === 0 ? closestMatch(key, allowed) : undefined;
  return `"${key}" is not a key of ${aNode(type)}${belongs}${hint ? ` (did you mean "${hint}"?)` : ''}; keys: ${allowed.join(', ')}. mistreevous would ignore it, so verbtree refuses it`;
}
