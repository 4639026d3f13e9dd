// svc posts create: prints only the new post's ID (so `id=$(svc posts create …)` works), or the post with --json.
// At a terminal without the input flags it guides the person through brand, channels, text or template, files
// to attach, the preview and when. Local files in --media are uploaded first; if the post is not made, the media
// uploaded for it are removed again.
import type { ClientCommand } from "../client/command.ts";
import { brandInfo } from "../client/names.ts";
import { checkJsonFields, printJson, wantsJson } from "../client/printer.ts";
import { logStep, outro } from "../client/prompt.ts";
import { inZone } from "../client/zone.ts";
import { UsageError } from "../output.ts";
import { POST_FIELDS } from "./fields.ts";
import { askWhen, guidedInput } from "./guided.ts";
import {
  type At,
  INPUT_HELP,
  INPUT_OPTIONS,
  inputFromFlags,
  type PostInput,
  parseAt,
  requireInput,
  resolveAt,
} from "./input.ts";
import { attachMedia, discardUploads, type MediaSource } from "./media.ts";

export const postsCreate: ClientCommand = {
  name: "posts create",
  summary: "Create a post; prints its ID",
  usage:
    "svc posts create --brand BRAND (--body TEXT | --body-file FILE|- | --template KEY[@N] --data JSON) [--media IDS|FILES [--alt TEXT]] [--fit NETWORK=MODE] [--at WHEN] [--by TIME] [--draft] [--idempotency-key KEY]",
  help: `Flags:\n${INPUT_HELP}
  --at WHEN            next_slot (default: the brand's next free slot), now, "YYYY-MM-DD HH:MM" in the
                       brand's time zone, or an RFC 3339 time with an offset (2026-12-01T09:00:00+01:00)
  --by TIME            publish by this time or give up (same forms as --at)
  --draft              save a draft: no time needed, rule problems are shown, not refused; schedule it later
                       with 'svc posts edit ID --schedule' or 'svc posts reschedule ID --at WHEN'
  --idempotency-key KEY
                       a retry with the same key creates nothing new (API keys; files are uploaded again)

Files in --media are checked before anything is sent, then uploaded one at a time into the brand; at a terminal
each shows its name, size and new media ID on stderr. If an upload or the post fails, nothing is created.
A time without a zone is read in the brand's time zone (not this machine's); at a terminal stderr says which zone
and the UTC time sent, and with next_slot which slot the post took. In a pipe only the ID is printed.

Examples:
  svc posts create --brand acme-shop --body "We shipped 2.0" --at now
  svc posts create --brand acme-shop --body "New shelf" --media ./photo.jpg --alt "Oak shelf, three books"
  svc posts create --brand acme-shop --body "Before and after" --media media_01j…,./after.png
  svc posts create --brand acme-shop --template release --data '{"version":"2.0"}' --at "2026-12-01 09:00"
  svc posts create --brand acme-shop --body-file long.txt --fit bluesky=thread,x=thread
  svc posts create --brand acme-shop --body "Idea for Friday" --draft
  svc posts create     # at a terminal: asks for everything`,
  options: {
    ...INPUT_OPTIONS,
    at: { type: "string" },
    by: { type: "string" },
    draft: { type: "boolean" },
    "idempotency-key": { type: "string" },
  },
  fields: POST_FIELDS,
  async run(ctx) {
    checkJsonFields(ctx);
    const given = await inputFromFlags(ctx);
    const complete = given.brand && (given.content || given.template || given.attach?.length);
    const guided = !complete && ctx.interactive;
    const draft = ctx.flags.draft === true;
    // Every flag is checked before a file is uploaded.
    let at: At | undefined = ctx.flags.at !== undefined ? parseAt(ctx.flags.at) : undefined;
    const by: At | undefined = ctx.flags.by !== undefined ? parseAt(ctx.flags.by, "--by") : undefined;
    if (by === "now" || by === "next_slot") throw new UsageError("--by must be a time");
    const uploaded: string[] = [];
    let made = false;
    try {
      let input: PostInput;
      let attach: MediaSource[] = [];
      if (guided) {
        input = await guidedInput(ctx, given, uploaded);
        if (!draft) at ??= await askWhen(ctx, input.brand);
      } else ({ input, attach } = requireInput(given));
      // A time without a zone is read in the brand's zone before any file is uploaded, so a credential that cannot
      // read the zone stops here with nothing to undo.
      const {
        values: [publish_at, publish_by],
        brand,
      } = await resolveAt(ctx, input.brand, [
        // A draft needs no time: it keeps one only when given.
        { flag: "--at", at: at ?? (draft ? undefined : "next_slot") },
        { flag: "--by", at: by },
      ]);
      if (attach.length) input.media = await attachMedia(ctx, input.brand, attach, uploaded);
      const key = ctx.flags["idempotency-key"];
      const r = await ctx.api("POST", "/v1/posts", {
        body: {
          ...input,
          ...(publish_at ? { publish_at } : {}),
          ...(publish_by ? { publish_by } : {}),
          ...(draft ? { draft: true } : {}),
        },
        headers: key ? { "Idempotency-Key": key } : undefined,
      });
      made = true;
      if (publish_at === "next_slot" && !draft && ctx.stderrTty) {
        // The slot is chosen by the server; say which, in the brand's zone, so nobody has to look it up.
        const tz = (brand ?? (await brandInfo(ctx, r.body.brand)))?.timezone;
        const said = r.body.publish_at
          ? `Next slot: ${tz ? `${inZone(r.body.publish_at, tz)} (${r.body.publish_at})` : r.body.publish_at}`
          : "Waits for approval; it takes the next free slot when approved.";
        // In the guided session's frame, else on stderr; never in a pipe, where stdout is the ID and nothing else.
        if (guided) logStep(said);
        else ctx.io.err(said);
      }
      if (guided) outro(`Created ${r.body.id} (${r.body.status})`);
      if (wantsJson(ctx)) await printJson(ctx, r.body);
      else ctx.io.out(r.body.id);
      return 0;
    } finally {
      if (!made) await discardUploads(ctx, uploaded, true);
    }
  },
};
