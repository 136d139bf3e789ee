// The CLI as a child process of the crash test (run with `node --import tsx`).
import { runCli } from '../../src/cli/main.js';

process.exitCode = await runCli(process.argv.slice(2));
