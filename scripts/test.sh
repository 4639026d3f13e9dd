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

# The media tests make real MP4 and QuickTime files with Debian's ffmpeg.
if ! command -v ffmpeg >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  (apt-get install -y -qq ffmpeg >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq ffmpeg >/dev/null 2>&1; }) || true
fi

bun install --frozen-lockfile >/dev/null
bun run check
exec bun scripts/test.ts "$@"
