import { createRequire } from 'node:module';

/** A feature needs a package that is not installed: the message names it and the command that adds it. */
export class MissingPackageError extends Error {
  override name = 'MissingPackageError';

  constructor(
    readonly packageName: string,
    feature: string,
  ) {
    super(`${feature} needs the package ${packageName}, which is not installed: npm install ${packageName}`);
  }
}

const require = createRequire(import.meta.url);

/**
 * Loads an optional package when a feature first needs it (better-sqlite3 for the journal, flying-squid for
 * the embedded server), so a planner that uses neither installs and runs without them.
 */
export function requireOptional<T>(packageName: string, feature: string, specifier: string = packageName): T {
  try {
    return require(specifier) as T;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'MODULE_NOT_FOUND' && String((error as Error).message).includes(packageName))
      throw new MissingPackageError(packageName, feature);
    throw error;
  }
}
