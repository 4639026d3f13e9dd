// svc posts create: prints only the new post's ID (so `id=$(svc posts create …)` works). At a terminal without
// the input flags it guides the person through brand, channels, text or template, the preview and when.
import type { ClientCommand } from "../client/command.ts";
import { outro } from "../client/prompt.ts";
import { UsageError } from "../output.ts";
import { askWhen, guidedInput } from "./guided.ts";
import { INPUT_HELP, INPUT_OPTIONS, inputFromFlags, parseAt, requireInput } from "./input.ts";

export const postsCreate: ClientCommand = {
  name: "posts create",
  summary: "Create a post; prints its ID",
  usage:
    "svc posts create --brand BRAND (--body TEXT | --body-file FILE|- | --template KEY[@N] --data JSON) [--at WHEN] [--by TIME] [--idempotency-key KEY]",
  help: `Flags:\n${INPUT_HELP}
  --at WHEN              now, next_slot (default), an RFC 3339 time or "YYYY-MM-DD HH:MM" (local)
  --by TIME              publish by this time or give up
  --idempotency-key KEY  a retry with the same key creates nothing new (API keys)

Examples:
  svc posts create --brand acme-shop --body "We shipped 2.0" --at now
  svc posts create --brand acme-shop --template release --data '{"version":"2.0"}' --at "2026-12-01 09:00"
  svc posts create     # at a terminal: asks for everything`,
  options: {
    ...INPUT_OPTIONS,
    at: { type: "string" },
    by: { type: "string" },
    "idempotency-key": { type: "string" },
  },
  async run(ctx) {
    const given = await inputFromFlags(ctx);
    const complete = given.brand && (given.content || given.template || given.media?.length);
    const guided = !complete && ctx.interactive;
    const input = guided ? await guidedInput(ctx, given) : requireInput(given);
    const publish_at =
      ctx.flags.at !== undefined ? parseAt(ctx.flags.at) : guided ? await askWhen() : "next_slot";
    let publish_by: string | undefined;
    if (ctx.flags.by !== undefined) {
      publish_by = parseAt(ctx.flags.by);
      if (publish_by === "now" || publish_by === "next_slot") throw new UsageError("--by must be a time");
    }
    const key = ctx.flags["idempotency-key"];
    const r = await ctx.api("POST", "/v1/posts", {
      body: { ...input, publish_at, ...(publish_by ? { publish_by } : {}) },
      headers: key ? { "Idempotency-Key": key } : undefined,
    });
    if (guided) outro(`Created ${r.body.id} (${r.body.status})`);
    ctx.io.out(r.body.id);
    return 0;
  },
};
