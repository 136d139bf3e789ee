import { validateDefinition } from 'mistreevous';
import { RANGE_KEYS, isComposite, isDecorator, type TreeNodeDefinition } from './tree-definition.js';

/** Where a node object of a definition was written: its line and the line of each of its keys. */
export interface NodeLocation {
  line: number;
  keys: ReadonlyMap<string, number>;
}
export type LocationMap = WeakMap<object, NodeLocation>;

export interface LocatedDefinition {
  /** What mistreevous's validateDefinition takes: an array of root node definitions. */
  document: unknown;
  locations: LocationMap;
}

/**
 * The mistreevous JSON of parsed roots, as mistreevous's own MDSL parser
 * (convertMDSLToJSON) would produce it: `args` always on actions and
 * conditions, `succeedOnAbort` always on guards.
 */
export function toMistreevousDefinition(roots: readonly TreeNodeDefinition[]): LocatedDefinition {
  const locations: LocationMap = new WeakMap();
  const convert = (node: TreeNodeDefinition): Record<string, unknown> => {
    const json: Record<string, unknown> = { type: node.type };
    const keys = new Map<string, number>();
    if (node.type === 'root' && node.name !== undefined) json.id = node.name;
    if (node.type === 'action' || node.type === 'condition') {
      json.call = node.name;
      json.args = [...node.args];
    } else if (node.type === 'branch') {
      json.ref = node.name;
    } else if ((node.type === 'repeat' || node.type === 'retry' || node.type === 'wait') && node.args.length > 0) {
      json[RANGE_KEYS[node.type]] = node.args.length === 1 ? node.args[0] : [...node.args];
    } else if (node.type === 'lotto' && node.args.length > 0) {
      json.weights = [...node.args];
    }
    for (const attribute of node.attributes) {
      const guard = attribute.kind === 'while' || attribute.kind === 'until';
      json[attribute.kind] = guard
        ? { call: attribute.call, args: [...attribute.args], succeedOnAbort: attribute.succeedOnAbort }
        : { call: attribute.call, args: [...attribute.args] };
      keys.set(attribute.kind, attribute.line);
    }
    if (isDecorator(node.type) && node.children[0]) json.child = convert(node.children[0]);
    if (isComposite(node.type)) json.children = node.children.map(convert);
    locations.set(json, { line: node.line, keys });
    return json;
  };
  return { document: roots.map(convert), locations };
}

/**
 * Runs mistreevous's own validateDefinition; on a refusal, places its message
 * (which names no line) at the node it is about: the first node, in the order
 * mistreevous checks them, that fails alone.
 */
export function mistreevousRefusal(definition: LocatedDefinition): { line: number; message: string } | undefined {
  const result = validateDefinition(definition.document);
  if (result.succeeded) return undefined;
  const message = result.errorMessage ?? 'invalid definition';
  return { line: locate(definition, message), message: `mistreevous refuses the definition: ${message}` };
}

const STAND_IN = Object.freeze({ type: 'action', call: 'stand_in' });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node with its children replaced by a valid stand-in leaf, so only its own keys are checked. */
function alone(node: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...node };
  if (isObject(copy.child)) copy.child = STAND_IN;
  if (Array.isArray(copy.children))
    copy.children = copy.children.map((child: unknown) => (isObject(child) ? STAND_IN : child));
  return copy;
}

function failsAlone(node: Record<string, unknown>, depth: number): boolean {
  const single = alone(node);
  const document =
    depth > 0
      ? [{ type: 'root', child: single }]
      : single.id === undefined
        ? [single]
        : [{ type: 'root', child: STAND_IN }, single];
  return !validateDefinition(document).succeeded;
}

function locate({ document, locations }: LocatedDefinition, message: string): number {
  const roots = (Array.isArray(document) ? document : [document]).filter(isObject);
  const firstLine = roots[0] ? (locations.get(roots[0])?.line ?? 1) : 1;
  const key = /attribute '(\w+)'/.exec(message)?.[1] ?? /'(\w+)' property/.exec(message)?.[1];
  const visit = (node: Record<string, unknown>, depth: number): number | undefined => {
    if (failsAlone(node, depth)) {
      const where = locations.get(node);
      return (key !== undefined ? where?.keys.get(key) : undefined) ?? where?.line ?? firstLine;
    }
    const children = isObject(node.child)
      ? [node.child]
      : Array.isArray(node.children)
        ? node.children.filter(isObject)
        : [];
    for (const child of children) {
      const line = visit(child, depth + 1);
      if (line !== undefined) return line;
    }
    return undefined;
  };
  for (const root of roots) {
    const line = visit(root, 0);
    if (line !== undefined) return line;
  }
  // A whole-definition problem (main root, duplicate names, circular branches): at the root it names, else the first.
  const named = /'([^']+)'$/.exec(message)?.[1] ?? /=> ([^=]+) => [^=]+$/.exec(message)?.[1]?.trim();
  const root = [...roots].reverse().find((r) => r.id === named);
  return (root && locations.get(root)?.line) ?? firstLine;
}
