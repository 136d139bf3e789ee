/**
 * Polls `test` on real time (a real server or bot answers in its own time) until it holds; false if it never does
 * within `limitMs`, so the caller's assertion names what did not happen.
 */
export async function eventually(test: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<boolean> {
  for (const end = Date.now() + limitMs; !(await test());) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}
