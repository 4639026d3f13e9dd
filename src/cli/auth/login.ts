// svc auth login: device sign-in (or --with-token from stdin, or the /cli paste when the server has no device
// sign-in); checks the credential's mode with GET /v1/me and stores it in its mode's slot.
import { ApiError, call } from "../client/api.ts";
import { openBrowser } from "../client/browser.ts";
import type { ClientCommand, Ctx } from "../client/command.ts";
import { type Host, parseHost } from "../client/host.ts";
import { ask } from "../client/prompt.ts";
import { UsageError } from "../output.ts";
import { approveDevice, deviceName, startDevice } from "./device.ts";
import { type Mode, readHosts } from "./hosts.ts";
import { saveCredential } from "./store.ts";

export const authLogin: ClientCommand = {
  name: "auth login",
  summary: "Sign in to a server and store its test (or --live) credential",
  usage: "svc auth login [--hostname HOST] [--live] [--org ORG] [--with-token] [--insecure-storage]",
  help: `Flags:
  --with-token        read a user token or API key from stdin (stored in its own mode's slot)
  --insecure-storage  keep the secret in hosts.yaml even when a keychain is reachable

Examples:
  svc auth login --hostname svc.example.com
  svc auth login --hostname http://127.0.0.1:8080 --live
  echo "$SVC_KEY" | svc auth login --hostname svc.example.com --with-token`,
  options: { "with-token": { type: "boolean" }, "insecure-storage": { type: "boolean" } },
  async run(ctx) {
    const host = await chooseHost(ctx);
    const wanted: Mode = ctx.global.live ? "live" : "test";
    let token: string;
    let fromStdin = false;
    if (ctx.flags["with-token"]) {
      token = (await ctx.io.stdin()).trim();
      if (!token) throw new UsageError("--with-token reads the token from stdin, and stdin was empty");
      fromStdin = true;
    } else {
      const code = await startDevice(host.url, wanted === "live");
      token =
        (code && (await approveDevice(ctx, host.url, code))) || (await pasteKey(ctx, host, wanted, !code));
    }
    const me = await whoIs(host.url, token, ctx.global.org);
    const mode: Mode = me.livemode ? "live" : "test";
    // --with-token places a credential in its own mode's slot unless --live asked for the live one; a pasted or
    // approved credential must be of the mode asked for.
    if (mode !== wanted && !(fromStdin && !ctx.global.live))
      throw new Error(
        `that is a ${mode} credential, but this sign-in is for ${wanted} mode; ${
          mode === "live"
            ? "run svc auth login --live to store it"
            : "run svc auth login without --live to store it"
        }`,
      );
    const user = me.user?.email ?? (me.api_key ? `API key ${me.api_key.name ?? me.api_key.hint}` : "unknown");
    const where = await saveCredential(
      {
        host: host.key,
        url: host.url,
        mode,
        user,
        token,
        org: ctx.global.org,
        insecure: Boolean(ctx.flags["insecure-storage"]),
      },
      ctx.env,
    );
    const ok = ctx.c.green("✓");
    ctx.io.err(`${ok} Logged in to ${host.key} as ${user} (${mode} mode, org ${me.org?.name ?? "?"})`);
    ctx.io.err(
      `${ok} Credential stored in ${where === "keychain" ? "the system keychain" : "hosts.yaml (no keychain reachable, or --insecure-storage)"}`,
    );
    return 0;
  },
};

async function chooseHost(ctx: Ctx): Promise<Host> {
  const named = ctx.global.hostname ?? ctx.env.SVC_HOST;
  if (named) return parseHost(named);
  const saved = readHosts(ctx.env);
  if (ctx.interactive && !ctx.flags["with-token"]) {
    const answer = await ask.text("Which server? (a host name for https, or a URL)", {
      placeholder: "svc.example.com or http://127.0.0.1:8080",
      initial: saved.default ? saved.hosts[saved.default]?.url : undefined,
    });
    return parseHost(answer);
  }
  throw new UsageError("--hostname is required (no terminal to ask on)");
}

/** The fallback: the dashboard's /cli page issues a key in the mode asked for, pasted here at a silent prompt. */
async function pasteKey(ctx: Ctx, host: Host, mode: Mode, noDeviceFlow: boolean): Promise<string> {
  const page = `${host.url}/cli?device=${encodeURIComponent(deviceName())}${mode === "live" ? "&livemode=true" : ""}`;
  ctx.io.err(
    `${noDeviceFlow ? `${host.key} does not offer device sign-in. ` : ""}Open ${page}, sign in, and paste the ${mode} key it shows.`,
  );
  if (!ctx.interactive)
    throw new UsageError("no terminal to paste the key at; pipe it instead: svc auth login --with-token");
  await openBrowser(page, ctx.env);
  // clack's password prompt with an empty mask echoes nothing.
  return await ask.secret("Paste the key");
}

interface Me {
  livemode: boolean;
  org?: { id: string; name: string };
  user?: { email: string };
  api_key?: { name?: string; hint?: string };
}

async function whoIs(url: string, token: string, org: string | undefined): Promise<Me> {
  try {
    return (await call({ url, token, org }, "GET", "/v1/me")).body as Me;
  } catch (e) {
    if (e instanceof ApiError && e.status === 401)
      throw new Error(`${url} does not accept that credential: ${e.message} (${e.code})`);
    throw e;
  }
}
