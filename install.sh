#!/usr/bin/env bash
# The first command: installs Bun and the dependencies, creates the data directory with a master key (0600),
# bootstraps an admin, an org, a brand and a sandbox channel (printing the admin's password once), then starts
# `svc all` on SQLite at http://localhost:8080. Running it again just starts svc.
# On a server, install the executable as a systemd service instead: `bun run build`, then
# `sudo deploy/install-vps.sh --base-url https://svc.example.org` (docs/operations.md).
set -euo pipefail
cd "$(dirname "$0")"
BUN_VERSION=1.4.5

if ! command -v bun >/dev/null 2>&1; then
  if [ -x .tools/node_modules/.bin/bun ]; then
    export PATH="$PWD/.tools/node_modules/.bin:$PATH"
  else
    echo "Installing Bun $BUN_VERSION from the npm registry…"
    if ! npm install -g "bun@$BUN_VERSION" >/dev/null 2>&1; then
      # No permission for a global install: keep Bun inside the project.
      npm install --prefix .tools "bun@$BUN_VERSION" >/dev/null
      export PATH="$PWD/.tools/node_modules/.bin:$PATH"
    fi
  fi
fi

bun install --frozen-lockfile

export SVC_DATA_DIR="${SVC_DATA_DIR:-$PWD/data}"
mkdir -p "$SVC_DATA_DIR"
chmod 700 "$SVC_DATA_DIR"
KEY_FILE="$SVC_DATA_DIR/master.key"
if [ -z "${SVC_MASTER_KEYS:-}${SVC_MASTER_KEYS_FILE:-}" ] && [ ! -f "$KEY_FILE" ]; then
  (umask 077 && bun src/main.ts admin keys generate --id "local-$(date +%Y%m%d)" > "$KEY_FILE")
  chmod 600 "$KEY_FILE"
  echo "Master key written to $KEY_FILE (mode 0600). Back it up outside the database."
fi

if [ -z "${SVC_DATABASE_URL:-}${DATABASE_URL:-}" ] && [ ! -f "$SVC_DATA_DIR/svc.db" ]; then
  echo
  bun src/main.ts admin bootstrap --email "${SVC_ADMIN_EMAIL:-admin@localhost.localdomain}" --org "${SVC_ORG:-My Org}" --brand "${SVC_BRAND:-My Brand}"
  echo
fi

echo "Starting svc all. Open ${SVC_BASE_URL:-http://localhost:8080} and sign in to the dashboard (Ctrl-C stops it)."
exec bun src/main.ts all
