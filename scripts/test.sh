#!/usr/bin/env bash
# The second command: type check and lint, then every test on SQLite and (when reachable) Postgres.
# Works on a machine with only Node and npm: it installs Bun and starts the local Postgres if it is stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
BUN_VERSION=1.4.5

if ! command -v bun >/dev/null 2>&1; then
  if [ ! -x .tools/node_modules/.bin/bun ]; then
    npm install -g "bun@$BUN_VERSION" >/dev/null 2>&1 || npm install --prefix .tools "bun@$BUN_VERSION" >/dev/null
  fi
  export PATH="$PWD/.tools/node_modules/.bin:$PATH"
fi

if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  for v in $(ls /etc/postgresql 2>/dev/null); do pg_ctlcluster --skip-systemctl-redirect "$v" main start >/dev/null 2>&1 || true; done
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null && break; sleep 1; done
fi

# Debian packages the tests use, installed when missing (one apt-get run): chromium for the dashboard's browser
# tests (driven by playwright-core), gnome-keyring and dbus for the CLI's keychain test (a Secret Service on a
# private D-Bus session), ffmpeg for the media tests' real MP4 and QuickTime files; see below for the chart's.
NEED=""
[ -x /usr/bin/chromium ] || NEED="$NEED chromium"
command -v gnome-keyring-daemon >/dev/null 2>&1 || NEED="$NEED gnome-keyring"
command -v dbus-run-session >/dev/null 2>&1 || NEED="$NEED dbus"
command -v ffmpeg >/dev/null 2>&1 || NEED="$NEED ffmpeg"
# The chart's tests: Go and sprig to render its templates as Helm does (Helm itself is not packaged), promtool for
# the alert rules.
command -v go >/dev/null 2>&1 || NEED="$NEED golang-go"
[ -d /usr/share/gocode/src/github.com/Masterminds/sprig ] || NEED="$NEED golang-github-masterminds-sprig-dev"
command -v promtool >/dev/null 2>&1 || NEED="$NEED prometheus"
if [ -n "$NEED" ] && command -v apt-get >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
  echo "Installing for the tests:$NEED"
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $NEED; } >/dev/null 2>&1 \
    || echo "Could not install$NEED; the tests that need them will fail." >&2
fi

bun install --frozen-lockfile >/dev/null
# The Bluesky tests run a real PDS and AppView on Node 22; installed once into .tools (quiet; instant when present).
bash scripts/install-pds.sh || echo "warning: the local Bluesky PDS could not be installed; its tests will fail" >&2
bun run check
exec bun scripts/test.ts "$@"
