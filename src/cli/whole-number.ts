import { CliUsageError } from './io.js';

/** A commander parser of a whole-number option from `min` to `max`; anything else is a usage error naming the flag. */
export const wholeIn = (flag: string, min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new CliUsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
};
