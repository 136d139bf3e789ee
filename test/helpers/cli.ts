import { runCli } from '../../src/cli/main.js';

/** Runs the CLI in-process and captures what it printed. */
export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    io: {
      out: (t) => void (out += t.endsWith('\n') ? t : `${t}\n`),
      err: (t) => void (err += t.endsWith('\n') ? t : `${t}\n`),
    },
  });
  return { code, out, err };
}
