// svc posts get <id>: the post, its media and each channel's target, with the brand and channels by name and
// times in the brand's zone.
import type { ClientCommand } from "../client/command.ts";
import { brandInfo, brandLabel } from "../client/names.ts";
import { printObject, when } from "../client/printer.ts";
import { inZone } from "../client/zone.ts";
import { POST_FIELDS, postText } from "./fields.ts";
import { byteSize } from "./media.ts";

interface Target {
  provider: string;
  channel: string;
  channel_name: string | null;
  status: string;
  permalink: string | null;
  error: { message: string } | null;
}

interface Medium {
  id: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  filename: string | null;
  video: { duration_ms: number } | null;
}

/** One line per medium: `media_… image/jpeg 400×300 12.3 KiB photo.jpg "alt text"`. */
function mediumLine(m: Medium): string {
  const bits = [m.id, m.type];
  if (m.width && m.height) bits.push(`${m.width}×${m.height}`);
  if (m.video) bits.push(`${(m.video.duration_ms / 1000).toFixed(1)} s`);
  bits.push(byteSize(m.size));
  if (m.filename) bits.push(m.filename);
  bits.push(m.alt ? `alt ${JSON.stringify(m.alt)}` : "no alt text");
  return `  ${bits.join("  ")}`;
}

export const postsGet: ClientCommand = {
  name: "posts get",
  summary: "Show a post, its media and its targets",
  usage: "svc posts get <id>",
  help: "Example:\n  svc posts get post_0123456789abcdefghjkmnpqrs",
  args: { min: 1, max: 1, names: ["<id>"] },
  fields: POST_FIELDS,
  async run(ctx) {
    const p = (await ctx.api("GET", `/v1/posts/${encodeURIComponent(ctx.args[0]!)}`)).body;
    const brand =
      ctx.global.json === null && ctx.global.jq === undefined ? await brandInfo(ctx, p.brand) : null;
    const at = (iso: string) =>
      `${brand ? `${inZone(iso, brand.timezone)} (${iso})` : iso}${ctx.stdoutTty ? `, ${when(ctx, iso)}` : ""}`;
    const targets = ((p.targets ?? []) as Target[])
      .map(
        (t) =>
          `  ${t.channel_name ?? t.provider} (${t.provider}, ${t.channel}): ${t.status}${t.permalink ? ` ${t.permalink}` : ""}${t.error ? ` (${t.error.message})` : ""}`,
      )
      .join("\n");
    const media = ((p.media ?? []) as Medium[]).map(mediumLine).join("\n");
    const sections = [media && `Media:\n${media}`, targets && `Targets:\n${targets}`].filter(Boolean);
    await printObject(
      ctx,
      p,
      [
        ["ID", p.id],
        ["Status", p.status],
        ["Brand", brandLabel(brand, p.brand)],
        ["Mode", p.livemode ? "live" : "test"],
        [
          "When",
          p.publish_at
            ? `${at(p.publish_at)}${p.slot ? ", on one of the brand's slots" : ""}`
            : "next slot, after approval",
        ],
        ["By", p.publish_by ? at(p.publish_by) : null],
        ["Template", p.template ? `${p.template}@${p.template_version}` : ""],
        ["Text", postText(p)],
      ],
      sections.length ? sections.join("\n\n") : undefined,
    );
    return 0;
  },
};
