#!/usr/bin/env bash
# The system packages `npm test` needs, installed before it runs (npm's `pretest`): Debian's chromium drives the
# monitor's browser tests (test/monitor/browser.ts) and Debian's postgresql gives the journal's and the fleet's tests
# initdb and pg_ctl for clusters of their own (test/helpers/postgres.ts; its service and default cluster stay unused).
# As root with apt-get it installs what is missing; otherwise it fails at once naming the command to run: a test
# suite that skips what it cannot run would pass without testing.
# SYSTEM_DEPS_ROOT prefixes the paths it looks at, so a test can run it against a folder standing in for /.
# Only bash builtins, `id` and `apt-get` are used, so a test's PATH of stand-ins decides everything.
set -euo pipefail
root="${SYSTEM_DEPS_ROOT:-}"

has_chromium() { [ -x "$root/usr/bin/chromium" ]; }
has_postgresql() {
  local initdb
  for initdb in "$root"/usr/lib/postgresql/*/bin/initdb; do [ -x "$initdb" ] && return 0; done
  command -v initdb >/dev/null
}

missing() {
  local wanted=()
  has_chromium || wanted+=(chromium)
  has_postgresql || wanted+=(postgresql)
  echo "${wanted[*]}"
}

read -r -a packages <<<"$(missing)"
[ "${#packages[@]}" -eq 0 ] && exit 0

command="apt-get update && apt-get install -y ${packages[*]}"
if ! command -v apt-get >/dev/null; then
  echo "npm test needs Debian's ${packages[*]} and this machine has no apt-get: install them with your system's package manager (on Debian: $command)" >&2
  exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "npm test needs Debian's ${packages[*]}: run as root: $command (or sudo sh -c '$command'), then npm test again" >&2
  exit 1
fi

echo "npm test: installing Debian's ${packages[*]} (apt-get, quiet)" >&2
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null

read -r -a still <<<"$(missing)"
if [ "${#still[@]}" -ne 0 ]; then
  echo "npm test: apt-get installed ${packages[*]} but ${still[*]} is still missing (see test/monitor/browser.ts and test/helpers/postgres.ts for the paths used)" >&2
  exit 1
fi
