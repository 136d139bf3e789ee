/** One measured figure; `baseline` and `ratio` are set where a baseline was measured in the same run. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
}

export type Bench = () => Promise<BenchResult[]>;
