import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/**
 * A CPU profile of one phase of a bench (V8's sampling profiler through the inspector), written as a .cpuprofile
 * that Chrome's DevTools and speedscope open: where the time of that phase goes, without the start-up and connect
 * phases that `node --cpu-prof` would mix in.
 */
export async function startProfile(file: string): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await writeFile(file, JSON.stringify(profile));
  };
}
