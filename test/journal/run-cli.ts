// The CLI as a child process of the crash test (compiled by test/helpers/cli-build.ts).
import { runCli } from '../../src/cli/main.js';

process.exitCode = await runCli(process.argv.slice(2));
