/** A number of turns taken in order: who finds none free waits for the next one given back, however long. */
export class Turns {
  private readonly waiting: (() => void)[] = [];

  constructor(private free: number) {}

  /** Resolves with this turn's give-back (which does nothing the second time) once a turn is free. */
  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
