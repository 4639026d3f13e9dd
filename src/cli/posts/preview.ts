// svc posts preview: what each channel would receive. Exits 1 when any channel has a violation, listing each
// with its channel on stderr. Local files in --media are uploaded for the preview and removed after it.
import type { ClientCommand } from "../client/command.ts";
import { channelsById } from "../client/names.ts";
import { printJson, wantsJson } from "../client/printer.ts";
import { INPUT_HELP, INPUT_OPTIONS, inputFromFlags, requireInput } from "./input.ts";
import { attachMedia, discardUploads } from "./media.ts";
import { type Preview, renderPreview, violationLines } from "./renditions.ts";

export const PREVIEW_FIELDS = ["object", "valid", "renditions"] as const;

export const postsPreview: ClientCommand = {
  name: "posts preview",
  summary: "Show what each channel would receive; exit 1 on any violation",
  usage:
    "svc posts preview --brand BRAND (--body TEXT | --body-file FILE|- | --template KEY[@N] --data JSON) [--media IDS|FILES] [--fit NETWORK=MODE]",
  help: `Flags:\n${INPUT_HELP}\n\nExamples:\n  svc posts preview --brand acme-shop --body "We shipped 2.0"\n  svc posts preview --brand acme-shop --template release --data '{"version":"2.0"}'\n  svc posts preview --brand acme-shop --body-file long.txt --fit bluesky=thread`,
  options: INPUT_OPTIONS,
  fields: PREVIEW_FIELDS,
  async run(ctx) {
    const { input, attach } = requireInput(await inputFromFlags(ctx));
    const uploaded: string[] = [];
    let p: Preview;
    try {
      if (attach.length) input.media = await attachMedia(ctx, input.brand, attach, uploaded);
      p = (await ctx.api("POST", "/v1/posts/preview", { body: input })).body as Preview;
    } finally {
      await discardUploads(ctx, uploaded);
    }
    const json = wantsJson(ctx);
    // JSON carries the IDs; text shows each channel by name.
    const channels = json ? new Map() : await channelsById(ctx);
    if (json) await printJson(ctx, p);
    else ctx.io.out(renderPreview(p, ctx.c, channels));
    const lines = violationLines(p, channels);
    if (lines.length === 0) return 0;
    ctx.io.err(
      `svc posts preview: ${lines.length} problem${lines.length === 1 ? "" : "s"}\n${lines.map((l) => `  ${l}`).join("\n")}`,
    );
    return 1;
  },
};
