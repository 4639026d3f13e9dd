// The master key held in a Transit key service (Vault or OpenBao): data keys are wrapped with its encrypt and
// unwrapped with its decrypt, nothing else, so the policy needs only `update` on `<mount>/encrypt/<key>` and
// `<mount>/decrypt/<key>`. The key never leaves the service. Nothing here runs at start: the first wrap or unwrap
// logs in (a role login) or uses the token, and a role's token is replaced by a new login before it expires.
import { readFileSync } from "node:fs";
import { KeyServiceUnavailable, type MasterKeys } from "./master.ts";

export interface TransitOptions {
  /** The service's address, e.g. https://vault.internal:8200 (the API is under /v1). */
  addr: string;
  key: string;
  mount: string;
  /** A token able to encrypt and decrypt; or a role login below. */
  token: string | null;
  role: string | null;
  /** The service-account (or other JWT) token file; read again at each login, since projected tokens rotate. */
  jwtFile: string;
  /** The auth method's mount, e.g. kubernetes or jwt. */
  authPath: string;
  /** Milliseconds before a request is given up as unreachable. */
  timeoutMs?: number;
  now?: () => number;
}

/** The key's ID in org_keys.master_key_id: no colon, so values of the form `<keyId>:<wrapped>` still split. */
export const transitKeyId = (mount: string, key: string) => `transit/${mount}/${key}`;

const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64");

export class TransitMasterKey implements MasterKeys {
  readonly primaryId: string;
  readonly ids: readonly string[];
  private token: { value: string; renewAt: number; expiresAt: number } | null = null;
  private login: Promise<string> | null = null;
  private readonly now: () => number;

  constructor(private readonly o: TransitOptions) {
    this.primaryId = transitKeyId(o.mount, o.key);
    this.ids = [this.primaryId];
    this.now = o.now ?? Date.now;
  }

  kindOf(keyId: string) {
    return keyId === this.primaryId ? ("transit" as const) : null;
  }

  async wrap(dataKey: Uint8Array, aad: string) {
    const r = await this.call("encrypt", { plaintext: b64(dataKey), associated_data: b64(Buffer.from(aad)) });
    const ciphertext = (r as { data?: { ciphertext?: unknown } }).data?.ciphertext;
    if (typeof ciphertext !== "string") throw new KeyServiceUnavailable("Transit encrypt gave no ciphertext");
    return { keyId: this.primaryId, wrapped: ciphertext };
  }

  async unwrap(keyId: string, wrapped: string, aad: string): Promise<Buffer> {
    if (keyId !== this.primaryId) throw new Error(`master key ${keyId} is not configured`);
    const r = await this.call("decrypt", { ciphertext: wrapped, associated_data: b64(Buffer.from(aad)) });
    const plaintext = (r as { data?: { plaintext?: unknown } }).data?.plaintext;
    if (typeof plaintext !== "string") throw new KeyServiceUnavailable("Transit decrypt gave no plaintext");
    return Buffer.from(plaintext, "base64");
  }

  private async call(
    op: "encrypt" | "decrypt",
    body: Record<string, string>,
    retried = false,
  ): Promise<unknown> {
    const token = await this.currentToken();
    const res = await this.post(`/v1/${this.o.mount}/${op}/${this.o.key}`, body, token);
    // A role token revoked or expired early: log in again once.
    if (res.status === 403 && this.o.role && !retried) {
      this.token = null;
      return this.call(op, body, true);
    }
    if (res.status === 200) return res.body;
    const why = errorsOf(res.body);
    // 400 is the service judging the value (a ciphertext that does not decrypt under this key): not an outage.
    if (res.status === 400) throw new Error(`Transit ${op} refused: ${why}`);
    throw new KeyServiceUnavailable(`Transit ${op} answered ${res.status}: ${why}`);
  }

  private async currentToken(): Promise<string> {
    if (this.o.token) return this.o.token;
    const t = this.token;
    const now = this.now();
    if (t && now < t.renewAt) return t.value;
    // Renew before expiry by logging in again; while that fails, a token not yet expired is still used.
    this.login ??= this.roleLogin().finally(() => {
      this.login = null;
    });
    try {
      return await this.login;
    } catch (e) {
      if (t && now < t.expiresAt) return t.value;
      throw e;
    }
  }

  private async roleLogin(): Promise<string> {
    let jwt: string;
    try {
      jwt = readFileSync(this.o.jwtFile, "utf8").trim();
    } catch (e) {
      throw new KeyServiceUnavailable(
        `cannot read SVC_TRANSIT_JWT_FILE ${this.o.jwtFile}: ${(e as Error).message}`,
      );
    }
    const res = await this.post(`/v1/auth/${this.o.authPath}/login`, { role: this.o.role!, jwt }, null);
    const auth = (res.body as { auth?: { client_token?: unknown; lease_duration?: unknown } } | null)?.auth;
    if (res.status !== 200 || typeof auth?.client_token !== "string")
      throw new KeyServiceUnavailable(
        `Transit login as role ${this.o.role} answered ${res.status}: ${errorsOf(res.body)}`,
      );
    const ttl = typeof auth.lease_duration === "number" && auth.lease_duration > 0 ? auth.lease_duration : 0;
    const now = this.now();
    // No lease (a token that does not expire): keep it. Else log in again at two thirds of the lease.
    const expiresAt = ttl ? now + ttl * 1000 : Number.POSITIVE_INFINITY;
    this.token = {
      value: auth.client_token,
      renewAt: ttl ? now + (ttl * 1000 * 2) / 3 : expiresAt,
      expiresAt,
    };
    return auth.client_token;
  }

  private async post(
    path: string,
    body: Record<string, string>,
    token: string | null,
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers["x-vault-token"] = token;
    let res: Response;
    try {
      res = await fetch(new URL(path, this.o.addr), {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 5000),
      });
    } catch (e) {
      throw new KeyServiceUnavailable(`Transit at ${this.o.addr} is unreachable: ${(e as Error).message}`);
    }
    const text = await res.text().catch(() => "");
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  }
}

function errorsOf(body: unknown): string {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) && errors.length ? errors.join("; ") : "no detail";
}
