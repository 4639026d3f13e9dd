// Deployment configuration: the SVC_* variables of the specification, read once at start and validated with one
// clear message per wrong variable. `*_FILE` variants read secrets from files (Docker/Kubernetes secrets).

import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SmtpSettings } from "../mail/host.ts";

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Config {
  databaseUrl: string;
  dialect: "sqlite" | "postgres";
  /** File path for SQLite (":memory:" allowed in tests). */
  sqlitePath: string | null;
  dataDir: string;
  masterKeys: string | null;
  /** The master key in a Transit key service (SVC_TRANSIT_*); primary when local keys are also set. */
  transit: TransitConfig | null;
  baseUrl: string;
  listenHost: string;
  listenPort: number;
  autoMigrate: boolean;
  clientIpHeader: string | null;
  /** SVC_CLIENT_IP_HOPS: how many trusted proxies append to that header; the client is that many from the right. */
  clientIpHops: number;
  allowPrivateNetworks: string | null;
  allowPrivateWebhooks: string | null;
  /** SVC_PROVIDER_ORIGINS: a network's API origin replaced (tests, a proxy), by provider. Empty by default. */
  providerOrigins: Record<string, string>;
  insecureCookies: boolean;
  logLevel: LogLevel;
  s3: {
    bucket: string;
    endpoint: string;
    accessKeyId: string;
    secretAccessKey: string;
    region: string;
    prefix: string;
  } | null;
  maxVideoBytes: number;
  signupUrl: string | null;
  billingUrl: string | null;
  billingLinkKey: string | null;
  smtp: SmtpSettings | null;
}

export interface TransitConfig {
  addr: string;
  key: string;
  mount: string;
  token: string | null;
  role: string | null;
  jwtFile: string;
  authPath: string;
}

/** Where Kubernetes mounts a pod's service-account token. */
export const DEFAULT_JWT_FILE = "/var/run/secrets/kubernetes.io/serviceaccount/token";

function parseTransit(env: Env, problems: string[]): TransitConfig | null {
  const token = secret(env, "SVC_TRANSIT_TOKEN", problems);
  const named = ["SVC_TRANSIT_ADDR", "SVC_TRANSIT_KEY", "SVC_TRANSIT_ROLE", "SVC_TRANSIT_MOUNT"].filter(
    (n) => env[n],
  );
  if (!env.SVC_TRANSIT_ADDR && !env.SVC_TRANSIT_KEY) {
    if (named.length || token)
      problems.push(`${named[0] ?? "SVC_TRANSIT_TOKEN"}: set SVC_TRANSIT_ADDR and SVC_TRANSIT_KEY with it`);
    return null;
  }
  const addr = url(env, "SVC_TRANSIT_ADDR", problems);
  if (!env.SVC_TRANSIT_ADDR)
    problems.push("SVC_TRANSIT_ADDR: the Transit service's address is needed with SVC_TRANSIT_KEY");
  const key = env.SVC_TRANSIT_KEY ?? "";
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(key))
    problems.push(`SVC_TRANSIT_KEY: expected the Transit key's name, got ${JSON.stringify(key)}`);
  const mount = (env.SVC_TRANSIT_MOUNT || "transit").replace(/^\/+|\/+$/g, "");
  if (!/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(mount))
    problems.push(`SVC_TRANSIT_MOUNT: expected a mount path such as transit, got ${JSON.stringify(mount)}`);
  const authPath = (env.SVC_TRANSIT_AUTH_PATH || "kubernetes").replace(/^\/+|\/+$/g, "");
  if (!/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(authPath))
    problems.push(
      `SVC_TRANSIT_AUTH_PATH: expected an auth mount such as kubernetes, got ${JSON.stringify(authPath)}`,
    );
  const role = env.SVC_TRANSIT_ROLE || null;
  if (token && role) problems.push("SVC_TRANSIT_TOKEN and SVC_TRANSIT_ROLE are both set; set one");
  if (!token && !role)
    problems.push(
      "SVC_TRANSIT_ADDR: Transit needs SVC_TRANSIT_TOKEN (or _FILE) or a role login (SVC_TRANSIT_ROLE)",
    );
  return {
    addr: addr ?? "",
    key,
    mount,
    token,
    role,
    jwtFile: env.SVC_TRANSIT_JWT_FILE || DEFAULT_JWT_FILE,
    authPath,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

type Env = Record<string, string | undefined>;

/** Reads VAR, or the file named by VAR_FILE (trailing newline dropped). */
function secret(env: Env, name: string, problems: string[]): string | null {
  const direct = env[name];
  const file = env[`${name}_FILE`];
  if (direct && file) problems.push(`${name} and ${name}_FILE are both set; set one`);
  if (direct) return direct;
  if (file) {
    try {
      return readFileSync(file, "utf8").trim();
    } catch (e) {
      problems.push(`${name}_FILE: cannot read ${file}: ${(e as Error).message}`);
    }
  }
  return null;
}

function bool(env: Env, name: string, dflt: boolean, problems: string[]): boolean {
  const v = env[name];
  if (v === undefined || v === "") return dflt;
  if (/^(true|1|yes|on)$/i.test(v)) return true;
  if (/^(false|0|no|off)$/i.test(v)) return false;
  problems.push(`${name}: expected true or false, got ${JSON.stringify(v)}`);
  return dflt;
}

function parseListen(v: string, problems: string[]): { host: string; port: number } {
  const m = /^(.*):(\d{1,5})$/.exec(v);
  const port = m ? Number(m[2]) : Number.NaN;
  if (!m || port > 65535) {
    problems.push(
      `SVC_LISTEN: expected [host]:port such as :8080 or 127.0.0.1:8080, got ${JSON.stringify(v)}`,
    );
    return { host: "0.0.0.0", port: 8080 };
  }
  const host = m[1]!.replace(/^\[(.*)\]$/, "$1");
  return { host: host === "" ? "0.0.0.0" : host, port };
}

function url(env: Env, name: string, problems: string[]): string | null {
  const v = env[name];
  if (!v) return null;
  try {
    const u = new URL(v);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("not http(s)");
    return v.replace(/\/+$/, "");
  } catch {
    problems.push(`${name}: expected an absolute http(s) URL, got ${JSON.stringify(v)}`);
    return null;
  }
}

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const dataDir = resolve(env.SVC_DATA_DIR || "./data");

  const rawDb = env.SVC_DATABASE_URL || env.DATABASE_URL || `sqlite:${join(dataDir, "svc.db")}`;
  let dialect: Config["dialect"] = "sqlite";
  let sqlitePath: string | null = null;
  if (/^postgres(ql)?:\/\//.test(rawDb)) dialect = "postgres";
  else if (rawDb.startsWith("sqlite:")) {
    sqlitePath = rawDb.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
    if (sqlitePath === "")
      problems.push("SVC_DATABASE_URL: sqlite: needs a file path, such as sqlite:./data/svc.db");
  } else
    problems.push(
      `SVC_DATABASE_URL: expected postgres://… or sqlite:PATH, got ${JSON.stringify(rawDb.replace(/:[^:@/]*@/, ":***@"))}`,
    );

  // Master keys: SVC_MASTER_KEYS(_FILE), else the key file the installer writes into the data directory.
  let masterKeys = secret(env, "SVC_MASTER_KEYS", problems);
  const defaultKeyFile = join(dataDir, "master.key");
  if (!masterKeys && !env.SVC_MASTER_KEYS_FILE && existsSync(defaultKeyFile)) {
    masterKeys = readFileSync(defaultKeyFile, "utf8").trim();
  }
  const transit = parseTransit(env, problems);

  const listen = parseListen(env.SVC_LISTEN || ":8080", problems);
  const baseUrl =
    url(env, "SVC_BASE_URL", problems) ??
    `http://${listen.host === "0.0.0.0" || listen.host === "::" ? "localhost" : listen.host}:${listen.port}`;

  const logLevel = (env.SVC_LOG_LEVEL || "info") as LogLevel;
  if (!["debug", "info", "warn", "error"].includes(logLevel)) {
    problems.push(
      `SVC_LOG_LEVEL: expected debug, info, warn or error, got ${JSON.stringify(env.SVC_LOG_LEVEL)}`,
    );
  }

  let s3: Config["s3"] = null;
  if (env.SVC_S3_BUCKET) {
    const endpoint = url(env, "SVC_S3_ENDPOINT", problems);
    if (!env.SVC_S3_ENDPOINT) problems.push("SVC_S3_ENDPOINT: required with SVC_S3_BUCKET");
    const accessKeyId = env.SVC_S3_ACCESS_KEY_ID ?? "";
    const secretAccessKey = secret(env, "SVC_S3_SECRET_ACCESS_KEY", problems) ?? "";
    if (!accessKeyId) problems.push("SVC_S3_ACCESS_KEY_ID: required with SVC_S3_BUCKET");
    if (!secretAccessKey) problems.push("SVC_S3_SECRET_ACCESS_KEY: required with SVC_S3_BUCKET");
    s3 = {
      bucket: env.SVC_S3_BUCKET,
      endpoint: endpoint ?? "",
      accessKeyId,
      secretAccessKey,
      region: env.SVC_S3_REGION || "auto",
      prefix: env.SVC_S3_PREFIX ?? "media/",
    };
  }

  const clientIpHops = Number(env.SVC_CLIENT_IP_HOPS || 1);
  if (!Number.isInteger(clientIpHops) || clientIpHops < 1 || clientIpHops > 20)
    problems.push(
      `SVC_CLIENT_IP_HOPS: expected a whole number of proxies from 1 to 20, got ${JSON.stringify(env.SVC_CLIENT_IP_HOPS)}`,
    );
  const maxVideoBytes = Number(env.SVC_MAX_VIDEO_BYTES || 1073741824);
  if (!Number.isSafeInteger(maxVideoBytes) || maxVideoBytes <= 0) {
    problems.push(
      `SVC_MAX_VIDEO_BYTES: expected a positive whole number of bytes, got ${JSON.stringify(env.SVC_MAX_VIDEO_BYTES)}`,
    );
  }

  const billingUrl = url(env, "SVC_BILLING_URL", problems);
  const billingLinkKey = secret(env, "SVC_BILLING_LINK_KEY", problems);
  if (billingUrl && (!billingLinkKey || billingLinkKey.length < 32)) {
    problems.push("SVC_BILLING_LINK_KEY: required with SVC_BILLING_URL, at least 32 characters");
  }

  let smtp: Config["smtp"] = null;
  if (env.SVC_SMTP_HOST) {
    const tls = (env.SVC_SMTP_TLS || "starttls") as "starttls" | "tls" | "none";
    if (!["starttls", "tls", "none"].includes(tls))
      problems.push(`SVC_SMTP_TLS: expected starttls, tls or none, got ${JSON.stringify(tls)}`);
    const port = Number(env.SVC_SMTP_PORT || (tls === "tls" ? 465 : 587));
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      problems.push(`SVC_SMTP_PORT: expected a port number, got ${JSON.stringify(env.SVC_SMTP_PORT)}`);
    if (!env.SVC_SMTP_FROM) problems.push("SVC_SMTP_FROM: required with SVC_SMTP_HOST");
    smtp = {
      host: env.SVC_SMTP_HOST,
      from: env.SVC_SMTP_FROM ?? "",
      port,
      tls,
      username: env.SVC_SMTP_USERNAME || null,
      password: secret(env, "SVC_SMTP_PASSWORD", problems),
    };
  }

  const providerOrigins = parseProviderOrigins(env.SVC_PROVIDER_ORIGINS, problems);
  const autoMigrate = bool(env, "SVC_AUTO_MIGRATE", true, problems);
  // The allow settings are parsed where they are used (net/allow.ts); checking them here makes a wrong entry
  // stop the start with its name instead of failing the first webhook or connect that reads it. Unset, "true"
  // and "false" need no parsing, so the address library loads only for a list of hosts and ranges.
  for (const name of ["SVC_ALLOW_PRIVATE_NETWORKS", "SVC_ALLOW_PRIVATE_WEBHOOKS"]) {
    const text = (env[name] ?? "").trim().toLowerCase();
    if (text === "" || text === "true" || text === "false") continue;
    const { AllowSettingError, parseAllowSetting } =
      require("../net/allow.ts") as typeof import("../net/allow.ts");
    try {
      parseAllowSetting(env[name], name);
    } catch (e) {
      if (!(e instanceof AllowSettingError)) throw e;
      problems.push(e.message);
    }
  }
  const insecureCookies = bool(env, "SVC_INSECURE_COOKIES", false, problems);
  const signupUrl = url(env, "SVC_SIGNUP_URL", problems);
  if (problems.length) throw new ConfigError(problems);
  return {
    databaseUrl: rawDb,
    dialect,
    sqlitePath,
    dataDir,
    masterKeys,
    transit,
    baseUrl,
    listenHost: listen.host,
    listenPort: listen.port,
    autoMigrate,
    clientIpHeader: env.SVC_CLIENT_IP_HEADER || null,
    clientIpHops,
    allowPrivateNetworks: env.SVC_ALLOW_PRIVATE_NETWORKS || null,
    allowPrivateWebhooks: env.SVC_ALLOW_PRIVATE_WEBHOOKS || null,
    providerOrigins,
    insecureCookies,
    logLevel,
    s3,
    maxVideoBytes,
    signupUrl,
    billingUrl,
    billingLinkKey,
    smtp,
  };
}

/**
 * `provider=url,provider=url`: each adapter's network origin replaced by one setting, for tests against local
 * stand-ins and for operators whose install reaches a network through a proxy. A provider may be named for
 * several origins it uses by a suffix after a dot (for example `bluesky.appview=http://127.0.0.1:2584`).
 */
function parseProviderOrigins(raw: string | undefined, problems: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw?.trim()) return out;
  for (const item of raw.split(",")) {
    const at = item.indexOf("=");
    const name = item.slice(0, at).trim();
    const value = item.slice(at + 1).trim();
    if (at <= 0 || !/^[a-z_]+(\.[a-z_]+)?$/.test(name)) {
      problems.push(`SVC_PROVIDER_ORIGINS: expected provider=url pairs, got ${JSON.stringify(item)}`);
      continue;
    }
    try {
      const u = new URL(value);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("not http(s)");
      out[name] = value.replace(/\/+$/, "");
    } catch {
      problems.push(
        `SVC_PROVIDER_ORIGINS: ${name} needs an absolute http(s) URL, got ${JSON.stringify(value)}`,
      );
    }
  }
  return out;
}
