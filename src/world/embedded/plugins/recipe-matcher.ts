/** What lies in a crafting grid: item ids, row-major, null for empty cells. */
export type Grid = readonly (readonly (number | null)[])[];

export interface CraftResult {
  id: number;
  count: number;
}

interface RawRecipe {
  inShape?: (number | null)[][];
  ingredients?: number[];
  result: { id: number; count: number };
}

/**
 * Finds what a crafting grid makes, from minecraft-data's recipes (what the
 * vanilla server does when a slot of the grid changes). Shaped recipes match
 * anywhere in the grid and mirrored; shapeless ones by ingredient multiset.
 */
export class RecipeMatcher {
  private readonly shaped: { shape: Grid; result: CraftResult }[] = [];
  private readonly shapeless = new Map<string, CraftResult>();

  constructor(recipes: Record<string, RawRecipe[]>) {
    for (const list of Object.values(recipes)) {
      for (const recipe of list) {
        const result = { id: recipe.result.id, count: recipe.result.count ?? 1 };
        if (recipe.inShape) this.shaped.push({ shape: trim(recipe.inShape), result });
        else if (recipe.ingredients) this.shapeless.set(multisetKey(recipe.ingredients), result);
      }
    }
  }

  match(grid: Grid): CraftResult | null {
    const trimmed = trim(grid);
    if (trimmed.length === 0) return null;
    const mirrored = trimmed.map((row) => [...row].reverse());
    for (const { shape, result } of this.shaped) {
      if (sameGrid(shape, trimmed) || sameGrid(shape, mirrored)) return result;
    }
    const ids = trimmed.flat().filter((id): id is number => id !== null);
    return this.shapeless.get(multisetKey(ids)) ?? null;
  }
}

function multisetKey(ids: readonly number[]): string {
  return [...ids].sort((a, b) => a - b).join(',');
}

function trim(grid: Grid): (number | null)[][] {
  const rows = grid.map((row, y) => ({ row, y })).filter(({ row }) => row.some((cell) => cell !== null));
  if (rows.length === 0) return [];
  const width = Math.max(...grid.map((row) => row.length));
  const columns = [...Array(width).keys()].filter((x) => grid.some((row) => (row[x] ?? null) !== null));
  const firstRow = rows[0]!.y;
  const lastRow = rows[rows.length - 1]!.y;
  const firstColumn = columns[0]!;
  const lastColumn = columns[columns.length - 1]!;
  const result: (number | null)[][] = [];
  for (let y = firstRow; y <= lastRow; y++) {
    const row: (number | null)[] = [];
    for (let x = firstColumn; x <= lastColumn; x++) row.push(grid[y]?.[x] ?? null);
    result.push(row);
  }
  return result;
}

function sameGrid(a: Grid, b: Grid): boolean {
  if (a.length !== b.length) return false;
  return a.every((row, y) => row.length === b[y]!.length && row.every((cell, x) => cell === b[y]![x]));
}
