import { Argument, Command } from 'commander';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { readJsonFile } from '../read-json.js';

interface ControlOptions {
  url: string;
  token?: string;
  steps?: string;
  reason?: string;
}

/**
 * `verbtree control <pause|resume|cancel|replace> <planId>`: steers a plan a
 * `verbtree serve` is running, through its HTTP API and token. Exit 0 when the
 * server did it, 1 when it refused (no such plan, nothing to change, a
 * replacement that does not validate), 2 for a usage error.
 */
export function controlCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command('control')
    .description(
      'Pause, resume, cancel or replace the remaining steps of a plan that `verbtree serve` is running, over its HTTP API.',
    )
    .addArgument(new Argument('<action>', 'what to do').choices(['pause', 'resume', 'cancel', 'replace']))
    .argument('<planId>', 'the plan, as POSTed to /api/cognitive/execute')
    .option('--url <url>', 'the server', 'http://127.0.0.1:7070')
    .option('--token <token>', 'its bearer token (default: $VERBTREE_TOKEN)')
    .option('--steps <file>', 'replace: a JSON file holding the new steps (an array, or a plan whose steps are used)')
    .option('--reason <text>', 'pause and cancel: why, recorded in the event and the journal')
    .addHelpText(
      'after',
      `
Examples:
  $ VERBTREE_TOKEN=secret verbtree control pause acquire-wood --reason "checking the area"
  $ verbtree control resume acquire-wood --token secret
  $ verbtree control replace acquire-wood --steps examples/walk.plan.json --token secret
  $ verbtree control cancel acquire-wood --url http://127.0.0.1:7070 --token secret`,
    )
    .action(async (action: string, planId: string, options: ControlOptions) => {
      const token = options.token ?? process.env.VERBTREE_TOKEN;
      if (!token)
        throw new CliUsageError("control needs the server's bearer token: pass --token <T> or set VERBTREE_TOKEN");
      if (action === 'replace' && !options.steps)
        throw new CliUsageError('replace needs --steps <file> with the new steps');
      if (action !== 'replace' && options.steps) throw new CliUsageError(`--steps is for replace, not ${action}`);
      let base: URL;
      try {
        base = new URL(options.url);
      } catch {
        throw new CliUsageError(`--url must be the server's address, e.g. http://127.0.0.1:7070, got "${options.url}"`);
      }
      const body: Record<string, unknown> = {};
      if (options.reason) body.reason = options.reason;
      if (options.steps) {
        const loaded = await readJsonFile(options.steps);
        const steps = Array.isArray(loaded) ? loaded : (loaded as { steps?: unknown } | null)?.steps;
        if (!Array.isArray(steps))
          throw new CliUsageError(`${options.steps} holds neither a list of steps nor a plan with "steps"`);
        body.steps = steps;
      }
      const target = new URL(`/api/plans/${encodeURIComponent(planId)}/${action}`, base);
      let response: Response;
      try {
        response = await fetch(target, {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        });
      } catch (error) {
        throw new CliUsageError(
          `cannot reach ${base.origin}: ${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}; is \`verbtree serve\` running there?`,
        );
      }
      const answer = (await response.json().catch(() => ({}))) as { error?: string; steps?: number };
      if (response.ok) {
        io.out(`✓ ${action} ${planId}${answer.steps !== undefined ? `: ${answer.steps} step(s) now remain` : ''}`);
        setExit(EXIT.ok);
      } else {
        io.err(`✗ ${action} ${planId} refused (${response.status}): ${answer.error ?? response.statusText}`);
        setExit(response.status === 401 ? EXIT.usage : EXIT.failed);
      }
    });
}
