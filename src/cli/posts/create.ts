// svc posts create: prints only the new post's ID (so `id=$(svc posts create …)` works), or the post with --json.
// At a terminal without the input flags it guides the person through brand, channels, text or template, files
// to attach, the preview and when. Local files in --media are uploaded first; if the post is not made, the media
// uploaded for it are removed again.
import type { ClientCommand } from "../client/command.ts";
import { checkJsonFields, printJson, wantsJson } from "../client/printer.ts";
import { outro } from "../client/prompt.ts";
import { UsageError } from "../output.ts";
import { POST_FIELDS } from "./fields.ts";
import { askWhen, guidedInput } from "./guided.ts";
import { INPUT_HELP, INPUT_OPTIONS, inputFromFlags, type PostInput, parseAt, requireInput } from "./input.ts";
import { attachMedia, discardUploads } from "./media.ts";

export const postsCreate: ClientCommand = {
  name: "posts create",
  summary: "Create a post; prints its ID",
  usage:
    "svc posts create --brand BRAND (--body TEXT | --body-file FILE|- | --template KEY[@N] --data JSON) [--media IDS|FILES [--alt TEXT]] [--at WHEN] [--by TIME] [--idempotency-key KEY]",
  help: `Flags:\n${INPUT_HELP}
  --at WHEN            now, next_slot (default), an RFC 3339 time or "YYYY-MM-DD HH:MM" (local)
  --by TIME            publish by this time or give up
  --idempotency-key KEY
                       a retry with the same key creates nothing new (API keys; files are uploaded again)

Files in --media are checked before anything is sent, then uploaded one at a time into the brand; at a terminal
each shows its name, size and new media ID on stderr. If an upload or the post fails, nothing is created.

Examples:
  svc posts create --brand acme-shop --body "We shipped 2.0" --at now
  svc posts create --brand acme-shop --body "New shelf" --media ./photo.jpg --alt "Oak shelf, three books"
  svc posts create --brand acme-shop --body "Before and after" --media media_01j…,./after.png
  svc posts create --brand acme-shop --template release --data '{"version":"2.0"}' --at "2026-12-01 09:00"
  svc posts create     # at a terminal: asks for everything`,
  options: {
    ...INPUT_OPTIONS,
    at: { type: "string" },
    by: { type: "string" },
    "idempotency-key": { type: "string" },
  },
  fields: POST_FIELDS,
  async run(ctx) {
    checkJsonFields(ctx);
    const given = await inputFromFlags(ctx);
    const complete = given.brand && (given.content || given.template || given.attach?.length);
    const guided = !complete && ctx.interactive;
    // Every flag is checked before a file is uploaded.
    let publish_at = ctx.flags.at !== undefined ? parseAt(ctx.flags.at) : undefined;
    let publish_by: string | undefined;
    if (ctx.flags.by !== undefined) {
      publish_by = parseAt(ctx.flags.by);
      if (publish_by === "now" || publish_by === "next_slot") throw new UsageError("--by must be a time");
    }
    const uploaded: string[] = [];
    let made = false;
    try {
      let input: PostInput;
      if (guided) input = await guidedInput(ctx, given, uploaded);
      else {
        const { input: flags, attach } = requireInput(given);
        input = flags;
        if (attach.length) input.media = await attachMedia(ctx, input.brand, attach, uploaded);
      }
      publish_at ??= guided ? await askWhen() : "next_slot";
      const key = ctx.flags["idempotency-key"];
      const r = await ctx.api("POST", "/v1/posts", {
        body: { ...input, publish_at, ...(publish_by ? { publish_by } : {}) },
        headers: key ? { "Idempotency-Key": key } : undefined,
      });
      made = true;
      if (guided) outro(`Created ${r.body.id} (${r.body.status})`);
      if (wantsJson(ctx)) await printJson(ctx, r.body);
      else ctx.io.out(r.body.id);
      return 0;
    } finally {
      if (!made) await discardUploads(ctx, uploaded, true);
    }
  },
};
