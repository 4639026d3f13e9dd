// The one-line VPS install (deploy/install-vps.sh) into a temporary root, as it would lay out a fresh server: the
// executable under /usr/local/lib/svc with /usr/local/bin/svc, a `svc` system user, /var/lib/svc (0700) with the
// master key (0600), /etc/svc/svc.env, and a hardened unit that systemd verifies against that root; the printed
// password, the service answering from the installed files, and a second run upgrading in place without touching
// the key or the data.
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = join(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "svc-install-"));
const root = join(work, "root");
const dist = join(work, "dist");
const port = 22000 + Math.floor(Math.random() * 10000);
let first = "";

function install(): string {
  const p = Bun.spawnSync(
    [
      "bash",
      join(repo, "deploy/install-vps.sh"),
      "--from",
      dist,
      "--base-url",
      `http://127.0.0.1:${port}`,
      "--listen",
      `127.0.0.1:${port}`,
      "--email",
      "ops@example.com",
      "--org",
      "Ops",
    ],
    { env: { ...process.env, SVC_INSTALL_ROOT: root } },
  );
  const out = p.stdout.toString() + p.stderr.toString();
  if (p.exitCode !== 0) throw new Error(`install-vps.sh exited ${p.exitCode}: ${out}`);
  return out;
}

const svcUser = () =>
  readFileSync(join(root, "etc/passwd"), "utf8")
    .split("\n")
    .find((l) => l.startsWith("svc:"))!
    .split(":");

beforeAll(() => {
  const build = Bun.spawnSync(["bun", "scripts/build.ts", "--host-only", "--out", dist], { cwd: repo });
  if (build.exitCode !== 0) throw new Error(build.stderr.toString());
  // A fresh server's account files, and the system units systemd resolves the unit's dependencies against.
  mkdirSync(join(root, "etc"), { recursive: true });
  for (const f of ["passwd", "group", "shadow", "gshadow"]) cpSync(`/etc/${f}`, join(root, "etc", f));
  mkdirSync(join(root, "usr/lib/systemd"), { recursive: true });
  cpSync("/lib/systemd/system", join(root, "usr/lib/systemd/system"), { recursive: true });
  first = install();
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

test("prints the URL and the first admin's password once", () => {
  expect(first).toContain(`URL: http://127.0.0.1:${port}`);
  expect(first).toMatch(/Admin:\s+ops@example\.com/);
  expect(first).toMatch(/Password:\s+\S{16,}/);
});

test("lays out the server: user, executable, data 0700, key 0600, settings readable by svc only", () => {
  const [, , uid, gid, , home, shell] = svcUser();
  expect(Number(uid)).toBeLessThan(1000); // a system user
  expect(home).toBe("/var/lib/svc");
  expect(shell).toBe("/usr/sbin/nologin");
  expect(readFileSync(join(root, "etc/group"), "utf8")).toContain(`svc:x:${gid}:`);
  expect(readlinkSync(join(root, "usr/local/bin/svc"))).toBe("/usr/local/lib/svc/svc");
  expect(lstatSync(join(root, "usr/local/lib/svc/node_modules/sharp")).isDirectory()).toBe(true);
  const data = statSync(join(root, "var/lib/svc"));
  expect(data.mode & 0o777).toBe(0o700);
  expect(data.uid).toBe(Number(uid));
  const key = statSync(join(root, "var/lib/svc/master.key"));
  expect(key.mode & 0o777).toBe(0o600);
  expect(key.uid).toBe(Number(uid));
  const env = statSync(join(root, "etc/svc/svc.env"));
  expect(env.mode & 0o777).toBe(0o640);
  expect(env.gid).toBe(Number(gid));
  expect(readFileSync(join(root, "etc/svc/svc.env"), "utf8")).toContain(
    `SVC_BASE_URL=http://127.0.0.1:${port}`,
  );
});

test("the unit is hardened and systemd verifies it against the installed root", () => {
  const unit = readFileSync(join(root, "etc/systemd/system/svc.service"), "utf8");
  for (const line of [
    "ExecStart=/usr/local/bin/svc all",
    "User=svc",
    "Restart=on-failure",
    "NoNewPrivileges=true",
    "ProtectSystem=strict",
    "ReadWritePaths=/var/lib/svc",
    "EnvironmentFile=/etc/svc/svc.env",
  ]) {
    expect(unit).toContain(line);
  }
  const verify = Bun.spawnSync([
    "systemd-analyze",
    "verify",
    "--man=no",
    `--root=${root}`,
    "/etc/systemd/system/svc.service",
  ]);
  expect(verify.stderr.toString()).toBe("");
  expect(verify.exitCode).toBe(0);
});

test("the installed executable serves, and a second run upgrades in place keeping key and data", async () => {
  const key = readFileSync(join(root, "var/lib/svc/master.key"), "utf8");
  const serve = () =>
    Bun.spawn([join(root, "usr/local/lib/svc/svc"), "all"], {
      cwd: join(root, "var/lib/svc"),
      env: {
        PATH: "/usr/bin:/bin",
        SVC_DATA_DIR: join(root, "var/lib/svc"),
        SVC_MASTER_KEYS_FILE: join(root, "var/lib/svc/master.key"),
        SVC_LISTEN: `127.0.0.1:${port}`,
        SVC_BASE_URL: `http://127.0.0.1:${port}`,
      },
      stdout: "ignore",
      stderr: "ignore",
    });
  const ready = async () => {
    for (let i = 0; i < 100; i++) {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
      if (r?.ok) return true;
      await Bun.sleep(100);
    }
    return false;
  };
  const a = serve();
  expect(await ready()).toBe(true);
  a.kill();
  await a.exited;

  const again = install();
  expect(again).toContain("Upgraded in place");
  expect(again).not.toContain("Password:");
  expect(readFileSync(join(root, "var/lib/svc/master.key"), "utf8")).toBe(key);
  const members = Bun.spawnSync(
    [join(root, "usr/local/lib/svc/svc"), "admin", "members", "list", "--org", "Ops"],
    {
      env: {
        PATH: "/usr/bin:/bin",
        SVC_DATA_DIR: join(root, "var/lib/svc"),
        SVC_MASTER_KEYS_FILE: join(root, "var/lib/svc/master.key"),
      },
    },
  );
  expect(members.stdout.toString()).toContain("ops@example.com");
  const b = serve();
  expect(await ready()).toBe(true);
  b.kill();
  await b.exited;
}, 60_000);
