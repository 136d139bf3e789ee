#!/usr/bin/env bash
# npm test's static checks (the npm scripts named as arguments) side by side, then each one's output in turn and a
# failure if any failed. They share no files and each is CPU-bound on one core (eslint's typed rules the longest), so on
# a 2-core machine they end in about the time of the longest instead of the sum; the output stays in order.
#
# With `-- <command>` (npm test: vitest) the command runs meanwhile in the foreground and the checks at the lowest CPU
# priority (nice 19): most of the suite waits on real servers, bots and timers, and the checks take the CPU it leaves
# idle instead of some 90 s of a 2-core machine before it starts; whenever a test wants a core, the scheduler gives it
# (a nice-19 process weighs 15 against a normal one's 1024). The checks write nothing a test reads (tsc --noEmit,
# eslint and prettier write nothing, TypeDoc the git-ignored docs/api/), and read nothing a test writes in the checkout
# (.scratch/ and .verbtree/ are ignored by all of them). The command's output comes first, then the checks'.
set -uo pipefail
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

scripts=()
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
  scripts+=("$1")
  shift
done
[ "${1:-}" = "--" ] && shift
command=("$@")

priority=()
[ "${#command[@]}" -ne 0 ] && priority=(nice -n 19)
pids=()
for script in "${scripts[@]}"; do
  "${priority[@]}" npm run --silent "$script" >"$out/$script.log" 2>&1 &
  pids+=("$!")
done

failed=()
if [ "${#command[@]}" -ne 0 ]; then
  "${command[@]}" || failed+=("${command[*]}")
fi
for i in "${!pids[@]}"; do
  script="${scripts[$i]}"
  wait "${pids[$i]}" || failed+=("$script")
  echo "> npm run $script"
  cat "$out/$script.log"
done

if [ "${#failed[@]}" -ne 0 ]; then
  echo "npm test: failed: ${failed[*]} (run each alone to see it again: npm run <name>, npx vitest run <file>)" >&2
  exit 1
fi
