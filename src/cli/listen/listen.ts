// svc listen --forward-to URL [--events types]: streams the org's events (GET /v1/events/stream, test mode unless
// --live) and forwards each to a local URL signed exactly like a webhook delivery, with a per-host local secret
// kept in hosts.yaml (`listen_secret`). Reconnects after a dropped stream and resumes from the last event ID.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { randomBase62 } from "../../crypto/hash.ts";
import { SIGNATURE_HEADER, signPayload } from "../../net/signature.ts";
import { readHosts, writeHosts } from "../auth/hosts.ts";
import { ApiError, buildUrl, reason, USER_AGENT } from "../client/api.ts";
import type { ClientCommand, Ctx } from "../client/command.ts";
import { UsageError } from "../output.ts";

export const listenCommand: ClientCommand = {
  name: "listen",
  summary: "Forward the org's events to a local URL, signed like webhooks",
  usage: "svc listen --forward-to URL [--events TYPES] [--live]",
  help: `Flags:
  --forward-to URL   where to POST each event (for example http://localhost:3000/webhooks)
  --events TYPES     only these event types, comma-separated (default: all)

Each request carries Svc-Signature (t=…,v1=…) made with the local signing secret printed at start, Svc-Event-Id,
and the event JSON as the body, as a webhook delivery does.

Example:
  svc listen --forward-to http://localhost:3000/webhooks --events post.published,post.failed`,
  options: { "forward-to": { type: "string" }, events: { type: "string" } },
  async run(ctx) {
    const target = ctx.flags["forward-to"];
    if (!target) throw new UsageError("--forward-to is required");
    let forward: URL;
    try {
      forward = new URL(target);
    } catch {
      throw new UsageError(`--forward-to ${JSON.stringify(target)} is not a URL`);
    }
    if (forward.protocol !== "http:" && forward.protocol !== "https:")
      throw new UsageError("--forward-to must be an http or https URL");
    const cred = await ctx.credential();
    const secret = listenSecret(ctx, cred.host, cred.url);
    ctx.io.err(
      `> Ready! Forwarding ${cred.mode} events from ${cred.host} to ${forward.href}\n> Your local signing secret is ${secret} (^C to quit)`,
    );
    let lastId: string | undefined;
    let retryMs = 3000;
    let stopping = false;
    process.once("SIGINT", () => {
      stopping = true;
      process.exit(0);
    });
    while (!stopping) {
      const url = buildUrl(cred.url, "/v1/events/stream", { types: ctx.flags.events });
      const headers: Record<string, string> = {
        authorization: `Bearer ${cred.token}`,
        accept: "text/event-stream",
        "user-agent": USER_AGENT,
      };
      if (cred.org) headers["svc-org"] = cred.org;
      if (lastId) headers["last-event-id"] = lastId;
      let res: Response | null = null;
      try {
        // The credential goes to this server only: a redirect elsewhere is an answer, not a place to follow.
        res = await fetch(url, { headers, redirect: "manual" });
      } catch (e) {
        ctx.io.err(`! cannot reach ${cred.url} (${reason(e)}); retrying in ${retryMs / 1000} s`);
      }
      if (res && res.status !== 200) {
        const body = (await res.json().catch(() => ({}))) as { code?: string; detail?: string; errors?: [] };
        // A refused credential or a bad --events will not get better by retrying.
        if (res.status >= 400 && res.status < 500)
          throw new ApiError(
            res.status,
            body.code ?? `http_${res.status}`,
            body.detail ?? `HTTP ${res.status}`,
            body.errors ?? [],
            body,
          );
        ctx.io.err(`! the server answered ${res.status}; retrying in ${retryMs / 1000} s`);
      }
      if (res?.status === 200 && res.body) {
        let chain = Promise.resolve();
        const parser = createParser({
          onEvent(m: EventSourceMessage) {
            if (m.id) lastId = m.id;
            chain = chain.then(() => deliver(ctx, forward, secret, m));
          },
          onRetry(ms) {
            retryMs = ms;
          },
        });
        const decoder = new TextDecoder();
        try {
          for await (const chunk of res.body)
            parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
        } catch {
          // The connection dropped mid-stream: reconnect below.
        }
        await chain;
        ctx.io.err(
          `! the event stream closed; reconnecting in ${retryMs / 1000} s${lastId ? ` from ${lastId}` : ""}`,
        );
      }
      await Bun.sleep(retryMs);
    }
    return 0;
  },
};

/** The host's local signing secret, made on first use and kept in hosts.yaml. */
function listenSecret(ctx: Ctx, host: string, url: string): string {
  const file = readHosts(ctx.env);
  const entry = file.hosts[host] ?? { url };
  file.hosts[host] = entry;
  if (!entry.listen_secret) {
    entry.listen_secret = `whsec_${randomBase62(32)}`;
    writeHosts(file, ctx.env);
  }
  return entry.listen_secret;
}

async function deliver(ctx: Ctx, to: URL, secret: string, m: EventSourceMessage): Promise<void> {
  const body = m.data;
  const stamp = new Date().toISOString().slice(11, 19);
  const { c, io } = ctx;
  io.out(`${c.dim(stamp)}  --> ${c.bold(m.event ?? "message")} [${m.id ?? "?"}]`);
  const started = Date.now();
  try {
    const res = await fetch(to, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        [SIGNATURE_HEADER]: signPayload(body, [secret], Math.floor(Date.now() / 1000)),
        "svc-event-id": m.id ?? "",
      },
      body,
      signal: AbortSignal.timeout(10_000),
      // The signed event goes to --forward-to and nowhere else, as webhook deliveries never follow a redirect:
      // a 307 would resend it, body and signature, to whatever host the Location names.
      redirect: "manual",
    });
    await res.arrayBuffer().catch(() => undefined);
    const status = res.ok ? c.green(String(res.status)) : c.red(String(res.status));
    const location = res.headers.get("location");
    const note =
      res.status >= 300 && res.status < 400
        ? ` (a redirect${location ? ` to ${location}` : ""}: not followed)`
        : "";
    io.out(
      `${c.dim(stamp)}  <-- [${status}] POST ${to.href} [${m.id ?? "?"}] ${Date.now() - started} ms${note}`,
    );
  } catch (e) {
    io.out(`${c.dim(stamp)}  <-- ${c.red("failed")} POST ${to.href} [${m.id ?? "?"}]: ${reason(e)}`);
  }
}
