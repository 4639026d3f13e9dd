// A Transit key service as Vault and OpenBao document it (developer.hashicorp.com/vault/api-docs/secret/transit:
// Encrypt data, Decrypt data; api-docs/auth/kubernetes and auth/jwt: Login; api-docs#error-response): named
// aes256-gcm96 keys with versions, ciphertexts `vault:v<N>:<base64 nonce|ciphertext|tag>` bound to
// `associated_data`, tokens with a TTL and a policy naming the paths they may update, and role logins that take a
// service-account JWT the "cluster" knows. Every request and answer is checked against vault/openapi.json, kept to
// the paths this stand-in serves with their mounts fixed (the description's mounts are path parameters that
// collide across engines: see api-specs/README.md, Vault notes). It can be stopped and started again on the same
// port, as a service that goes away mid-run and comes back.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { type Answer, type Incoming, type StandIn, startStandIn } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface VaultOptions {
  transitMount?: string;
  authMounts?: string[];
}

export interface VaultStandIn {
  readonly url: string;
  /** Problems of every run so far (requests or answers the description does not allow). */
  problems: string[];
  requests: Incoming[];
  createKey(name: string): void;
  /** A new key version: new encryptions use it, old ciphertexts still decrypt. */
  rotateKey(name: string): void;
  /** A token whose policy allows update on exactly these paths (without /v1), valid ttlS seconds (0: no expiry). */
  issueToken(paths: string[], ttlS?: number): string;
  /** A role of an auth mount: logins with one of `jwts` get a token for `paths`, valid ttlS. */
  addRole(mount: string, role: string, opts: { jwts: string[]; paths: string[]; ttlS: number }): void;
  /** Accepts another JWT for a role (a rotated projected token). */
  acceptJwt(mount: string, role: string, jwt: string): void;
  revokeToken(token: string): void;
  /** Successful logins per role, in order. */
  logins: { mount: string; role: string; token: string; at: number }[];
  down(): void;
  up(): Promise<void>;
  stop(): void;
}

interface Token {
  paths: Set<string>;
  expiresAt: number | null;
  revoked: boolean;
}

const gcm = (key: Buffer, nonce: Buffer) => createCipheriv("aes-256-gcm", key, nonce);

export async function startVault(opts: VaultOptions = {}): Promise<VaultStandIn> {
  const mount = opts.transitMount ?? "transit";
  const authMounts = opts.authMounts ?? ["kubernetes", "jwt"];
  const spec = await loadSpec({
    file: "vault/openapi.json",
    // Only what is served, with mounts fixed, so transit-encrypt is not matched as a GCP KMS call (README).
    convert: (doc) => {
      const paths = doc.paths as Record<string, Record<string, unknown>>;
      const fix = (p: Record<string, unknown>, param: string) => {
        const copy = structuredClone(p) as { parameters?: { name: string }[] };
        copy.parameters = copy.parameters?.filter((x) => x.name !== param);
        return copy;
      };
      const kept: Record<string, unknown> = {};
      for (const op of ["encrypt", "decrypt"])
        kept[`/${mount}/${op}/{name}`] = fix(
          paths[`/{transit_mount_path}/${op}/{name}`]!,
          "transit_mount_path",
        );
      if (authMounts.includes("kubernetes"))
        kept["/auth/kubernetes/login"] = fix(
          paths["/auth/{kubernetes_mount_path}/login"]!,
          "kubernetes_mount_path",
        );
      for (const m of authMounts.filter((x) => x !== "kubernetes"))
        kept[`/auth/${m}/login`] = fix(paths["/auth/{jwt_mount_path}/login"]!, "jwt_mount_path");
      return { ...doc, paths: kept };
    },
  });

  const keys = new Map<string, Buffer[]>();
  const tokens = new Map<string, Token>();
  const roles = new Map<string, { jwts: Set<string>; paths: string[]; ttlS: number }>();
  const logins: VaultStandIn["logins"] = [];
  const problems: string[] = [];
  const requests: Incoming[] = [];

  const err = (status: number, ...errors: string[]): Answer => ({ status, body: { errors } });
  const envelope = (data: unknown, auth: unknown = null) => ({
    request_id: crypto.randomUUID(),
    lease_id: "",
    renewable: false,
    lease_duration: 0,
    data,
    wrap_info: null,
    warnings: null,
    auth,
  });
  const newToken = (paths: string[], ttlS: number) => {
    const value = `hvs.${randomBytes(18).toString("base64url")}`;
    tokens.set(value, {
      paths: new Set(paths),
      expiresAt: ttlS ? Date.now() + ttlS * 1000 : null,
      revoked: false,
    });
    return value;
  };
  const isB64 = (s: unknown) =>
    typeof s === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0;

  function authorize(req: Incoming, path: string): Answer | null {
    const t = tokens.get(req.headers["x-vault-token"] ?? "");
    // Vault answers 403 "permission denied" for a missing, unknown, expired or revoked token alike.
    if (!t || t.revoked || (t.expiresAt !== null && t.expiresAt <= Date.now()) || !t.paths.has(path))
      return err(403, "permission denied");
    return null;
  }

  function encrypt(name: string, body: Record<string, unknown>): Answer {
    const versions = keys.get(name);
    if (!versions) return err(400, `encryption key not found`);
    if (typeof body.plaintext !== "string") return err(400, "missing plaintext to encrypt");
    if (!isB64(body.plaintext)) return err(400, "failed to base64-decode plaintext");
    if (body.associated_data !== undefined && !isB64(body.associated_data))
      return err(400, "failed to base64-decode associated_data");
    const version = versions.length;
    const nonce = randomBytes(12);
    const c = gcm(versions[version - 1]!, nonce);
    if (body.associated_data) c.setAAD(Buffer.from(body.associated_data as string, "base64"));
    const ct = Buffer.concat([c.update(Buffer.from(body.plaintext, "base64")), c.final(), c.getAuthTag()]);
    return {
      status: 200,
      body: envelope({
        ciphertext: `vault:v${version}:${Buffer.concat([nonce, ct]).toString("base64")}`,
        key_version: version,
      }),
    };
  }

  function decrypt(name: string, body: Record<string, unknown>): Answer {
    const versions = keys.get(name);
    if (!versions) return err(400, `encryption key not found`);
    const m = typeof body.ciphertext === "string" ? /^vault:v(\d+):(.+)$/.exec(body.ciphertext) : null;
    if (!m) return err(400, "invalid ciphertext: no prefix");
    const key = versions[Number(m[1]) - 1];
    if (!key) return err(400, "invalid ciphertext: key version not found");
    const raw = Buffer.from(m[2]!, "base64");
    try {
      const d = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      if (body.associated_data) d.setAAD(Buffer.from(body.associated_data as string, "base64"));
      d.setAuthTag(raw.subarray(raw.length - 16));
      const plain = Buffer.concat([d.update(raw.subarray(12, raw.length - 16)), d.final()]);
      return { status: 200, body: envelope({ plaintext: plain.toString("base64") }) };
    } catch {
      return err(400, "cipher: message authentication failed");
    }
  }

  function login(authMount: string, body: Record<string, unknown>): Answer {
    if (typeof body.role !== "string" || body.role === "") return err(400, "missing role");
    if (typeof body.jwt !== "string" || body.jwt === "") return err(400, "missing jwt");
    const role = roles.get(`${authMount}:${body.role}`);
    if (!role) return err(400, `invalid role name "${body.role}"`);
    if (!role.jwts.has(body.jwt)) return err(403, "permission denied");
    const token = newToken(role.paths, role.ttlS);
    logins.push({ mount: authMount, role: body.role, token, at: Date.now() });
    return {
      status: 200,
      body: envelope(null, {
        client_token: token,
        accessor: randomBytes(12).toString("base64url"),
        policies: ["default", `svc-${body.role}`],
        token_policies: ["default", `svc-${body.role}`],
        metadata: { role: body.role },
        lease_duration: role.ttlS,
        renewable: true,
        entity_id: crypto.randomUUID(),
        token_type: "service",
        orphan: true,
      }),
    };
  }

  let port = 0;
  let current: StandIn | null = null;
  const serve = () =>
    startStandIn({
      spec,
      port,
      route(path) {
        if (!path.startsWith("/v1/")) return null;
        return { path: path.slice(3) };
      },
      documentedElsewhere: {
        400: "api-docs#error-response: {errors: [...]}",
        403: "api-docs#error-response: permission denied",
      },
      invalid: (found) => err(400, ...found),
      failure: () => err(503, "Vault is sealed"),
      handle(req) {
        const body = (req.body ?? {}) as Record<string, unknown>;
        const t = new RegExp(`^/${mount}/(encrypt|decrypt)/([^/]+)$`).exec(req.path);
        if (t && req.method === "POST") {
          const denied = authorize(req, req.path.slice(1));
          if (denied) return denied;
          return t[1] === "encrypt" ? encrypt(t[2]!, body) : decrypt(t[2]!, body);
        }
        const l = /^\/auth\/(.+)\/login$/.exec(req.path);
        if (l && req.method === "POST" && authMounts.includes(l[1]!)) return login(l[1]!, body);
        return err(404, "no handler for route");
      },
    });
  const attach = (s: StandIn) => {
    current = s;
    port = s.port;
  };
  attach(serve());
  const url = current!.url;

  return {
    url,
    get problems() {
      problems.push(...current!.problems.splice(0));
      return problems;
    },
    get requests() {
      return [...requests, ...(current?.requests ?? [])];
    },
    createKey(name) {
      keys.set(name, [randomBytes(32)]);
    },
    rotateKey(name) {
      keys.get(name)!.push(randomBytes(32));
    },
    issueToken: (paths, ttlS = 0) => newToken(paths, ttlS),
    addRole(authMount, role, o) {
      roles.set(`${authMount}:${role}`, { jwts: new Set(o.jwts), paths: o.paths, ttlS: o.ttlS });
    },
    acceptJwt(authMount, role, jwt) {
      roles.get(`${authMount}:${role}`)!.jwts.add(jwt);
    },
    revokeToken(token) {
      const t = tokens.get(token);
      if (t) t.revoked = true;
    },
    logins,
    down() {
      if (!current) return;
      problems.push(...current.problems.splice(0));
      requests.push(...current.requests.splice(0));
      current.stop();
      current = null;
    },
    async up() {
      if (!current) attach(serve());
    },
    stop() {
      current?.stop();
      current = null;
    },
  };
}
