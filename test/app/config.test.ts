// The deployment configuration: defaults with nothing set, database URLs, one clear message per wrong variable
// (all of them at once), `_FILE` variants, and master keys that do not parse.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ConfigError, loadConfig } from "../../src/app/config.ts";
import { createApp } from "../../src/app/context.ts";

const dir = mkdtempSync(join(tmpdir(), "svc-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};
const KEY = `k1:${Buffer.alloc(32, 7).toString("base64")}`;

/** The problems a configuration has (empty when it loads). */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
}

describe("deployment configuration", () => {
  test("with nothing set: SQLite in ./data, listening on :8080, base URL on localhost", () => {
    const emptyData = mkdtempSync(join(dir, "data-")); // no master.key in it
    const c = loadConfig({ SVC_DATA_DIR: emptyData });
    expect(c).toMatchObject({
      databaseUrl: `sqlite:${join(emptyData, "svc.db")}`,
      dialect: "sqlite",
      sqlitePath: join(emptyData, "svc.db"),
      dataDir: emptyData,
      masterKeys: null,
      baseUrl: "http://localhost:8080",
      listenHost: "0.0.0.0",
      listenPort: 8080,
      autoMigrate: true,
      logLevel: "info",
      s3: null,
      smtp: null,
      maxVideoBytes: 1073741824,
      insecureCookies: false,
      clientIpHeader: null,
      clientIpHops: 1,
      billingUrl: null,
    });
    // SVC_DATA_DIR itself defaults to ./data.
    const d = loadConfig({});
    expect(d.dataDir).toBe(resolve("./data"));
    expect(d.databaseUrl).toBe(`sqlite:${resolve("./data/svc.db")}`);
  });

  test("SVC_CLIENT_IP_HOPS: a whole number of proxies from 1 to 20", () => {
    expect(
      loadConfig({ SVC_CLIENT_IP_HEADER: "X-Forwarded-For", SVC_CLIENT_IP_HOPS: "2" }).clientIpHops,
    ).toBe(2);
    for (const bad of ["0", "1.5", "two", "21"])
      expect(problems({ SVC_CLIENT_IP_HOPS: bad })).toEqual([
        `SVC_CLIENT_IP_HOPS: expected a whole number of proxies from 1 to 20, got ${JSON.stringify(bad)}`,
      ]);
  });

  test("a postgres URL chooses Postgres; DATABASE_URL works when SVC_DATABASE_URL is unset", () => {
    const pg = loadConfig({ SVC_DATABASE_URL: "postgres://svc:pw@db:5432/svc" });
    expect([pg.dialect, pg.databaseUrl, pg.sqlitePath]).toEqual([
      "postgres",
      "postgres://svc:pw@db:5432/svc",
      null,
    ]);
    expect(loadConfig({ SVC_DATABASE_URL: "postgresql://db/svc" }).dialect).toBe("postgres");
    const fallback = loadConfig({ DATABASE_URL: "postgres://fallback/svc" });
    expect([fallback.dialect, fallback.databaseUrl]).toEqual(["postgres", "postgres://fallback/svc"]);
    const both = loadConfig({ SVC_DATABASE_URL: "sqlite:/tmp/x.db", DATABASE_URL: "postgres://ignored/svc" });
    expect([both.dialect, both.sqlitePath]).toEqual(["sqlite", "/tmp/x.db"]);
    expect(problems({ SVC_DATABASE_URL: "mysql://u:secret@h/db" })).toEqual([
      'SVC_DATABASE_URL: expected postgres://… or sqlite:PATH, got "mysql://u:***@h/db"',
    ]);
  });

  test("listen address and base URL", () => {
    const c = loadConfig({ SVC_LISTEN: "127.0.0.1:9000", SVC_BASE_URL: "https://svc.example.com/" });
    expect([c.listenHost, c.listenPort, c.baseUrl]).toEqual(["127.0.0.1", 9000, "https://svc.example.com"]);
    expect(loadConfig({ SVC_LISTEN: "127.0.0.1:9000" }).baseUrl).toBe("http://127.0.0.1:9000");
    const v6 = loadConfig({ SVC_LISTEN: "[::1]:8081" });
    expect([v6.listenHost, v6.listenPort]).toEqual(["::1", 8081]);
  });

  test("every wrong variable gets its own message, all at once", () => {
    const p = problems({
      SVC_LISTEN: "8080",
      SVC_LOG_LEVEL: "verbose",
      SVC_AUTO_MIGRATE: "maybe",
      SVC_S3_BUCKET: "media",
      SVC_S3_ACCESS_KEY_ID: "id",
      SVC_S3_SECRET_ACCESS_KEY: "secret",
      SVC_SMTP_HOST: "smtp.example.com",
      SVC_BILLING_URL: "https://billing.example.com",
      SVC_BILLING_LINK_KEY: "too-short",
      SVC_MAX_VIDEO_BYTES: "1GB",
    });
    expect(p).toEqual([
      'SVC_LISTEN: expected [host]:port such as :8080 or 127.0.0.1:8080, got "8080"',
      'SVC_LOG_LEVEL: expected debug, info, warn or error, got "verbose"',
      "SVC_S3_ENDPOINT: required with SVC_S3_BUCKET",
      'SVC_MAX_VIDEO_BYTES: expected a positive whole number of bytes, got "1GB"',
      "SVC_BILLING_LINK_KEY: required with SVC_BILLING_URL, at least 32 characters",
      "SVC_SMTP_FROM: required with SVC_SMTP_HOST",
      'SVC_AUTO_MIGRATE: expected true or false, got "maybe"',
    ]);
    // The error message lists them one per line.
    expect(() => loadConfig({ SVC_LISTEN: "nope", SVC_LOG_LEVEL: "loud" })).toThrow(
      'invalid configuration:\n  - SVC_LISTEN: expected [host]:port such as :8080 or 127.0.0.1:8080, got "nope"\n' +
        '  - SVC_LOG_LEVEL: expected debug, info, warn or error, got "loud"',
    );
  });

  test("a wrong allow setting stops the start with its name, not the first webhook that reads it", () => {
    expect(problems({ SVC_ALLOW_PRIVATE_WEBHOOKS: "http://hooks.internal" })).toEqual([
      'SVC_ALLOW_PRIVATE_WEBHOOKS: "http://hooks.internal" is not a hostname or CIDR (give a bare name such as mastodon.internal)',
    ]);
    expect(problems({ SVC_ALLOW_PRIVATE_NETWORKS: "10.0.0.0/99" })).toEqual([
      'SVC_ALLOW_PRIVATE_NETWORKS: "10.0.0.0/99" has a prefix length outside 0-32',
    ]);
    expect(
      problems({
        SVC_ALLOW_PRIVATE_WEBHOOKS: "true",
        SVC_ALLOW_PRIVATE_NETWORKS: "mastodon.internal,10.0.0.0/8",
      }),
    ).toEqual([]);
  });

  test("more single problems: ports, URLs, video size, S3 and SMTP settings", () => {
    expect(problems({ SVC_LISTEN: ":70000" })).toHaveLength(1);
    expect(problems({ SVC_BASE_URL: "svc.example.com" })).toEqual([
      'SVC_BASE_URL: expected an absolute http(s) URL, got "svc.example.com"',
    ]);
    expect(problems({ SVC_MAX_VIDEO_BYTES: "0" })[0]).toStartWith("SVC_MAX_VIDEO_BYTES:");
    expect(problems({ SVC_MAX_VIDEO_BYTES: "-5" })[0]).toStartWith("SVC_MAX_VIDEO_BYTES:");
    expect(problems({ SVC_S3_BUCKET: "m", SVC_S3_ENDPOINT: "http://s3:9000" })).toEqual([
      "SVC_S3_ACCESS_KEY_ID: required with SVC_S3_BUCKET",
      "SVC_S3_SECRET_ACCESS_KEY: required with SVC_S3_BUCKET",
    ]);
    expect(problems({ SVC_SMTP_HOST: "mx", SVC_SMTP_FROM: "a@b.c", SVC_SMTP_TLS: "ssl" })).toEqual([
      'SVC_SMTP_TLS: expected starttls, tls or none, got "ssl"',
    ]);
    const ok = loadConfig({
      SVC_S3_BUCKET: "m",
      SVC_S3_ENDPOINT: "http://s3:9000/",
      SVC_S3_ACCESS_KEY_ID: "id",
      SVC_S3_SECRET_ACCESS_KEY: "secret",
      SVC_SMTP_HOST: "mx",
      SVC_SMTP_FROM: "svc@example.com",
      SVC_SMTP_TLS: "tls",
      SVC_MAX_VIDEO_BYTES: "2048",
      SVC_AUTO_MIGRATE: "false",
      SVC_LOG_LEVEL: "debug",
    });
    expect(ok.s3).toEqual({
      bucket: "m",
      endpoint: "http://s3:9000",
      accessKeyId: "id",
      secretAccessKey: "secret",
      region: "auto",
      prefix: "media/",
    });
    expect(ok.smtp).toEqual({
      host: "mx",
      from: "svc@example.com",
      port: 465,
      tls: "tls",
      username: null,
      password: null,
    });
    expect([ok.maxVideoBytes, ok.autoMigrate, ok.logLevel]).toEqual([2048, false, "debug"]);
  });

  test("_FILE variants read the secret from a file, without its trailing newline", () => {
    const c = loadConfig({
      SVC_MASTER_KEYS_FILE: file("master", `${KEY}\n`),
      SVC_SMTP_HOST: "mx",
      SVC_SMTP_FROM: "svc@example.com",
      SVC_SMTP_USERNAME: "svc",
      SVC_SMTP_PASSWORD_FILE: file("smtp", "hunter2\n"),
      SVC_BILLING_URL: "https://billing.example.com",
      SVC_BILLING_LINK_KEY_FILE: file("billing", `${"b".repeat(32)}\n`),
    });
    expect(c.masterKeys).toBe(KEY);
    expect(c.smtp?.password).toBe("hunter2");
    expect(c.smtp?.username).toBe("svc");
    expect(c.billingLinkKey).toBe("b".repeat(32));
    expect(problems({ SVC_MASTER_KEYS_FILE: join(dir, "missing") })[0]).toStartWith(
      `SVC_MASTER_KEYS_FILE: cannot read ${join(dir, "missing")}:`,
    );
  });

  test("setting both VAR and VAR_FILE is an error", () => {
    expect(problems({ SVC_MASTER_KEYS: KEY, SVC_MASTER_KEYS_FILE: file("m2", KEY) })).toEqual([
      "SVC_MASTER_KEYS and SVC_MASTER_KEYS_FILE are both set; set one",
    ]);
    expect(
      problems({
        SVC_SMTP_HOST: "mx",
        SVC_SMTP_FROM: "a@b.c",
        SVC_SMTP_PASSWORD: "x",
        SVC_SMTP_PASSWORD_FILE: file("p2", "y"),
      }),
    ).toEqual(["SVC_SMTP_PASSWORD and SVC_SMTP_PASSWORD_FILE are both set; set one"]);
  });

  test("the installer's master.key in the data directory is used when SVC_MASTER_KEYS is unset", () => {
    const data = mkdtempSync(join(dir, "installed-"));
    writeFileSync(join(data, "master.key"), `${KEY}\n`);
    expect(loadConfig({ SVC_DATA_DIR: data }).masterKeys).toBe(KEY);
  });

  test("master keys that do not parse surface from createApp as ConfigError", () => {
    const attempt = (keys: string) => {
      try {
        createApp(loadConfig({ SVC_DATABASE_URL: "sqlite::memory:", SVC_MASTER_KEYS: keys }));
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).problems;
      }
      throw new Error("createApp accepted the keys");
    };
    expect(attempt(`k1:${Buffer.alloc(16).toString("base64")}`)).toEqual([
      "SVC_MASTER_KEYS: master key k1: expected 32 bytes of base64, got 16 bytes",
    ]);
    expect(attempt(`bad id!:${Buffer.alloc(32).toString("base64")}`)).toEqual([
      'SVC_MASTER_KEYS: master key "bad id!": the id must be 1-64 letters, digits, _ . -',
    ]);
    expect(attempt(`${KEY},${KEY}`)).toEqual(["SVC_MASTER_KEYS: master key k1: listed twice"]);
    expect(attempt(",")).toEqual(["SVC_MASTER_KEYS: no master key in the value"]);
    // A good pair (primary first) makes an App.
    const app = createApp(
      loadConfig({
        SVC_DATABASE_URL: "sqlite::memory:",
        SVC_MASTER_KEYS: `k2:${Buffer.alloc(32, 1).toString("base64")},${KEY}`,
      }),
    );
    expect([app.keys.master?.primaryId, app.keys.master?.ids]).toEqual(["k2", ["k2", "k1"]]);
    return app.close();
  });
});
