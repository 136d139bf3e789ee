#!/usr/bin/env bash
# npm test's static checks (the npm scripts named as arguments) side by side, then each one's output in turn and a
# failure if any failed. They share no files and each is CPU-bound on one core (eslint's typed rules the longest), so on
# a 2-core machine they end in about the time of the longest instead of the sum; the output stays in order.
set -uo pipefail
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

scripts=("$@")
pids=()
for script in "${scripts[@]}"; do
  npm run --silent "$script" >"$out/$script.log" 2>&1 &
  pids+=("$!")
done

failed=()
for i in "${!pids[@]}"; do
  script="${scripts[$i]}"
  wait "${pids[$i]}" || failed+=("$script")
  echo "> npm run $script"
  cat "$out/$script.log"
done

if [ "${#failed[@]}" -ne 0 ]; then
  echo "npm test: failed: ${failed[*]} (run npm run <name> alone to see it again)" >&2
  exit 1
fi
