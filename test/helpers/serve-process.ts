import { createInterface } from 'node:readline';
import { cliProcess, finished } from '../journal/cli-process.js';

export interface ServeProcess {
  /** The API's base URL, from the banner. */
  url: string;
  /** What the banner says in brackets: the journal, the world or the fleet, and whether control is on. */
  about: string;
  /** SIGTERM, then how it ended. */
  stop: () => Promise<{ code: number | null; err: string }>;
}

/** `verbtree serve <args>` on a free port with no health daemon, as a process of its own, once its banner says it listens. */
export async function serveProcess(args: string[]): Promise<ServeProcess> {
  const child = cliProcess(['serve', ...args, '--port', '0', '--health-interval', '0']);
  const ended = finished(child);
  for await (const line of createInterface({ input: child.stdout! })) {
    const listening = /^verbtree API on (http:\/\/\S+) \((.*)\)$/.exec(line);
    if (!listening) continue;
    return {
      url: listening[1]!,
      about: listening[2]!,
      stop: async () => {
        child.kill('SIGTERM');
        return ended;
      },
    };
  }
  throw new Error(`serve ended before it listened: ${(await ended).err}`);
}
