#!/usr/bin/env bash
# svc on one Linux server, as a systemd service: run as root from an unpacked release (the dist/ that
# `bun run build` writes):
#
#   sudo ./deploy/install-vps.sh --base-url https://svc.example.org
#
# Installs the executable (with sharp beside it) under /usr/local/lib/svc and links /usr/local/bin/svc; creates the
# `svc` system user, /var/lib/svc (0700) with the master key (0600), /etc/svc/svc.env and a hardened systemd unit
# running `svc all` on SQLite; bootstraps the first admin and prints the URL and the password once. Running it again
# upgrades in place: the new executable, the schema migrated, the service restarted; key, settings and data kept.
#
# Options: --from DIR (default: dist/ beside this script's folder), --base-url URL (default http://<hostname>:8080),
# --listen ADDR (default :8080), --email EMAIL and --org NAME for the first admin. SVC_INSTALL_ROOT=DIR installs
# into DIR instead of / and starts nothing (for tests; systemd is then only asked to verify the unit).
set -euo pipefail

FROM="$(cd "$(dirname "$0")/.." && pwd)/dist"
BASE_URL=""
LISTEN=":8080"
EMAIL="admin@localhost.localdomain"
ORG="My Org"
while [ $# -gt 0 ]; do
  case "$1" in
    --from) FROM="$2"; shift 2 ;;
    --base-url) BASE_URL="$2"; shift 2 ;;
    --listen) LISTEN="$2"; shift 2 ;;
    --email) EMAIL="$2"; shift 2 ;;
    --org) ORG="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "install-vps.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

ROOT="${SVC_INSTALL_ROOT:-/}"
ROOT="${ROOT%/}"
[ "$(id -u)" -eq 0 ] || { echo "install-vps.sh: run as root (sudo)" >&2; exit 1; }
case "$(uname -m)" in
  x86_64|amd64) ARCH=x64 ;;
  aarch64|arm64) ARCH=arm64 ;;
  *) echo "install-vps.sh: no build for $(uname -m)" >&2; exit 1 ;;
esac
BIN="$FROM/svc-linux-$ARCH"
[ -x "$BIN" ] || BIN="$FROM/svc"
[ -x "$BIN" ] && [ -d "$FROM/node_modules/sharp" ] || {
  echo "install-vps.sh: no executable in $FROM (run \`bun run build\` or unpack a release there)" >&2
  exit 1
}
BASE_URL="${BASE_URL:-http://$(hostname -f 2>/dev/null || hostname):${LISTEN##*:}}"

LIB="$ROOT/usr/local/lib/svc"
DATA="$ROOT/var/lib/svc"
ETC="$ROOT/etc/svc"
UNIT="$ROOT/etc/systemd/system/svc.service"
upgrade=false
[ -x "$LIB/svc" ] && upgrade=true

# The system user that runs svc and owns its data; nobody logs in as it.
if ! getent passwd svc >/dev/null 2>&1 && ! grep -q '^svc:' "$ROOT/etc/passwd" 2>/dev/null; then
  if [ -z "$ROOT" ]; then
    useradd --system --user-group --home-dir /var/lib/svc --no-create-home --shell /usr/sbin/nologin svc
  else
    useradd --prefix "$ROOT" --system --user-group --home-dir /var/lib/svc --no-create-home --shell /usr/sbin/nologin svc
  fi
fi
uid_of() { if [ -z "$ROOT" ]; then id -u svc; else awk -F: '$1=="svc"{print $3}' "$ROOT/etc/passwd"; fi; }
gid_of() { if [ -z "$ROOT" ]; then id -g svc; else awk -F: '$1=="svc"{print $4}' "$ROOT/etc/passwd"; fi; }
SVC_UID=$(uid_of)
SVC_GID=$(gid_of)

# The executable and sharp beside it, replaced as a whole so that an upgrade never mixes versions.
mkdir -p "$ROOT/usr/local/bin" "$(dirname "$LIB")"
rm -rf "$LIB.new"
mkdir -p "$LIB.new"
cp "$BIN" "$LIB.new/svc"
cp -R "$FROM/node_modules" "$LIB.new/node_modules"
chmod 755 "$LIB.new" "$LIB.new/svc"
rm -rf "$LIB.old"
[ -d "$LIB" ] && mv "$LIB" "$LIB.old"
mv "$LIB.new" "$LIB"
rm -rf "$LIB.old"
ln -sfn /usr/local/lib/svc/svc "$ROOT/usr/local/bin/svc"

# Data and the master key: only svc reads them.
install -d -m 0700 -o "$SVC_UID" -g "$SVC_GID" "$DATA"
if [ ! -f "$DATA/master.key" ]; then
  (umask 077 && "$LIB/svc" admin keys generate --id "local-$(date +%Y%m%d)" > "$DATA/master.key")
  chown "$SVC_UID:$SVC_GID" "$DATA/master.key"
  chmod 600 "$DATA/master.key"
  echo "Master key written to /var/lib/svc/master.key (mode 0600). Back it up outside this server."
fi

install -d -m 0750 -o root -g "$SVC_GID" "$ETC"
if [ ! -f "$ETC/svc.env" ]; then
  umask 027
  cat > "$ETC/svc.env" <<EOF
# svc's settings (docs/configuration.md). Restart after a change: systemctl restart svc
SVC_DATA_DIR=/var/lib/svc
SVC_MASTER_KEYS_FILE=/var/lib/svc/master.key
SVC_BASE_URL=$BASE_URL
SVC_LISTEN=$LISTEN
# SVC_SMTP_HOST=smtp.example.org
# SVC_SMTP_FROM=svc@example.org
EOF
  chown "root:$SVC_GID" "$ETC/svc.env"
  chmod 640 "$ETC/svc.env"
fi

mkdir -p "$(dirname "$UNIT")"
cat > "$UNIT" <<'EOF'
[Unit]
Description=svc publishing service
Documentation=https://github.com/example/svc/blob/main/docs/operations.md
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=svc
Group=svc
EnvironmentFile=/etc/svc/svc.env
WorkingDirectory=/var/lib/svc
ExecStart=/usr/local/bin/svc all
Restart=on-failure
RestartSec=2s
TimeoutStopSec=30s
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=true
ReadWritePaths=/var/lib/svc
PrivateTmp=true
PrivateDevices=true
ProtectKernelTunables=true
ProtectKernelModules=true
ProtectControlGroups=true
RestrictSUIDSGID=true
LockPersonality=true
RestrictNamespaces=true
CapabilityBoundingSet=
UMask=0077

[Install]
WantedBy=multi-user.target
EOF
chmod 644 "$UNIT"

# As the service would run: the svc user, its settings, its data directory.
as_svc() {
  local env=()
  while IFS= read -r line; do
    case "$line" in ''|'#'*) ;; *) env+=("$line") ;; esac
  done < "$ETC/svc.env"
  if [ -z "$ROOT" ]; then
    (cd "$DATA" && setpriv --reuid="$SVC_UID" --regid="$SVC_GID" --clear-groups env -i PATH=/usr/bin:/bin "${env[@]}" "$LIB/svc" "$@")
  else
    # A test root: the data directory and key are the root's, the command runs as the caller.
    (cd "$DATA" && env -i PATH=/usr/bin:/bin "${env[@]}" SVC_DATA_DIR="$DATA" SVC_MASTER_KEYS_FILE="$DATA/master.key" "$LIB/svc" "$@")
  fi
}

as_svc migrate >/dev/null
if [ "$upgrade" = false ] && [ ! -f "$DATA/.bootstrapped" ]; then
  echo
  as_svc admin bootstrap --email "$EMAIL" --org "$ORG"
  touch "$DATA/.bootstrapped"
  chown "$SVC_UID:$SVC_GID" "$DATA/.bootstrapped" "$DATA"/svc.db* 2>/dev/null || true
  echo
fi

if [ -z "$ROOT" ] && command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  if [ "$upgrade" = true ]; then systemctl restart svc; else systemctl enable --now svc; fi
  echo "svc is running: $BASE_URL (systemctl status svc; journalctl -u svc)"
else
  echo "Installed into ${ROOT:-/}; start it with: systemctl enable --now svc"
  echo "URL: $BASE_URL"
fi
[ "$upgrade" = true ] && echo "Upgraded in place: $("$LIB/svc" version)"
exit 0
