import { type Command, Option } from 'commander';
import type { ExecutorPolicyInput } from '../executor/policy.js';
import { CliUsageError } from './io.js';

/** How the bot answers hostiles (docs/defense.md): the executor's policy.safety.combat and fightHealthFloor. */
export interface CombatOptions {
  combat?: 'auto' | 'avoid';
  fightHealthFloor?: number;
}

function healthOf(value: string): number {
  const health = Number(value);
  if (value.trim() === '' || !Number.isFinite(health) || health < 0 || health > 20)
    throw new CliUsageError(`--fight-health-floor takes a health from 0 to 20, got "${value}"`);
  return health;
}

/** `--combat` and `--fight-health-floor`, for the commands that drive bots (run, serve, mcp). */
export function addCombatOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--combat <mode>',
        "how the bot answers hostiles: 'auto' fights what it can beat and flees or shelters from the rest, 'avoid' never starts a fight (a plan or a step may override it: docs/defense.md)",
      ).choices(['auto', 'avoid']),
    )
    .option(
      '--fight-health-floor <health>',
      'a fight is started only while it is expected to leave at least this much health (0 to 20; default 6)',
      healthOf,
    );
}

/** The executor policy's safety part the options set; nothing when neither was given. */
export function combatPolicy(options: CombatOptions): Pick<ExecutorPolicyInput, 'safety'> {
  const safety = {
    ...(options.combat ? { combat: options.combat } : {}),
    ...(options.fightHealthFloor !== undefined ? { fightHealthFloor: options.fightHealthFloor } : {}),
  };
  return Object.keys(safety).length > 0 ? { safety } : {};
}
