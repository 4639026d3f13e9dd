// Starts a real Bluesky PDS (@atproto/pds) and the PLC directory it registers accounts with (@did-plc/server,
// in memory), both on 127.0.0.1, and prints one JSON line {pds, plc} when they answer. Run by the Node 22 that
// scripts/install-pds.sh puts in .tools/node22 (the PDS's SQLite addon is built for it), with the packages from
// .tools/pds. It lives until its parent kills it; its data directory is removed on exit.
const path = require("node:path");
const fs = require("node:fs");
const os = require("node:os");
const net = require("node:net");
const { createRequire } = require("node:module");

const tools = path.resolve(__dirname, "../../../.tools/pds");
const need = createRequire(path.join(tools, "package.json"));

// Both servers call listen(port) without a host, which would bind every interface: keep them on loopback.
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" && (args.length === 1 || typeof args[1] === "function"))
    args.splice(1, 0, "127.0.0.1");
  return listen.apply(this, args);
};

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function main() {
  const plc = need("@did-plc/server");
  const pds = need("@atproto/pds");
  const { Secp256k1Keypair } = need("@atproto/crypto");
  const ui8 = need("uint8arrays");

  const plcServer = plc.PlcServer.create({ db: plc.Database.mock(), port: 0 });
  const plcHttp = await plcServer.start();
  const plcUrl = `http://127.0.0.1:${plcHttp.address().port}`;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "svc-pds-"));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  process.on("exit", cleanup);
  for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => process.exit(0));

  const rotation = await Secp256k1Keypair.create({ exportable: true });
  const recovery = await Secp256k1Keypair.create();
  // The PDS writes its own URL into every account's DID document, so it needs its port before it listens.
  const port = await freePort();
  const env = {
    devMode: true,
    hostname: "localhost",
    port,
    dataDirectory: dir,
    blobstoreDiskLocation: path.join(dir, "blobs"),
    didPlcUrl: plcUrl,
    recoveryDidKey: recovery.did(),
    adminPassword: process.env.PDS_ADMIN_PASSWORD || "admin-pass",
    jwtSecret: "jwt-secret-for-tests-only",
    serviceHandleDomains: [".test"],
    plcRotationKeyK256PrivateKeyHex: ui8.toString(await rotation.export(), "hex"),
    inviteRequired: false,
    disableSsrfProtection: true,
    serviceName: "svc test PDS",
    // No AppView: the PDS answers reads of its own repos; feed views need one (engagement counts).
    bskyAppViewUrl: process.env.PDS_APPVIEW_URL || undefined,
    bskyAppViewDid: process.env.PDS_APPVIEW_DID || undefined,
    rateLimitsEnabled: false,
    // The largest blob the PDS takes (its default is 5 MiB); a test lowers it to see a file refused.
    blobUploadLimit: Number(process.env.PDS_BLOB_UPLOAD_LIMIT) || undefined,
    crawlers: [],
  };
  const server = await pds.PDS.create(pds.envToCfg(env), pds.envToSecrets(env));
  await server.start();
  process.stdout.write(`${JSON.stringify({ pds: `http://localhost:${port}`, plc: plcUrl })}\n`);
  // The parent going away (killed test run) ends us too.
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
}

main().catch((e) => {
  process.stderr.write(`${e?.stack ?? e}\n`);
  process.exit(1);
});
