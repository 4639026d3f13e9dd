// The post input flags shared by preview and create: --brand, --body | --body-file FILE|- | --template KEY[@N]
// --data JSON, --channels, --media IDS|FILES with --alt.
import { readFileSync } from "node:fs";
import type { Ctx } from "../client/command.ts";
import { UsageError } from "../output.ts";
import { type MediaSource, mediaSources } from "./media.ts";

export const INPUT_OPTIONS = {
  brand: { type: "string" },
  body: { type: "string" },
  "body-file": { type: "string" },
  template: { type: "string" },
  data: { type: "string" },
  channels: { type: "string", multiple: true },
  media: { type: "string", multiple: true },
  alt: { type: "string", multiple: true },
} as const;

export const INPUT_HELP = `  --brand BRAND        the brand (ID or slug)
  --body TEXT          the text (a line holding only {{thread}} starts a new thread part)
  --body-file FILE|-   the text from a file, or stdin
  --template KEY[@N]   a template by key (or key@version, or ID) instead of text
  --data JSON          the template's data
  --channels IDS       only these channels (comma-separated or repeated; default: every active one)
  --media IDS|FILES    media to attach, in order: media IDs or local files, which are uploaded first
                       (comma-separated or repeated; images, or a video on an install with S3)
  --alt TEXT           alt text for an uploaded file (repeated: the n-th --alt for the n-th file)`;

export interface PostInput {
  brand: string;
  content?: { body: string };
  template?: string;
  data?: unknown;
  channels?: string[];
  media?: string[];
}

/** What the flags (or a guided session) gave: the media still as IDs and files, uploaded only once checked. */
export interface GivenInput extends Omit<Partial<PostInput>, "media"> {
  attach?: MediaSource[];
}

const list = (v: string[] | undefined) =>
  v
    ?.flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter(Boolean);

/** The text from --body or --body-file (stdin for "-"), undefined when neither is given. */
export async function bodyFrom(ctx: Ctx): Promise<string | undefined> {
  const f = ctx.flags;
  if (f.body !== undefined && f["body-file"] !== undefined)
    throw new UsageError("give --body or --body-file, not both");
  if (f["body-file"] === "-") return (await ctx.io.stdin()).replace(/\n$/, "");
  if (f["body-file"] !== undefined) {
    try {
      return readFileSync(f["body-file"], "utf8").replace(/\n$/, "");
    } catch (e) {
      throw new UsageError(
        `--body-file: cannot read ${f["body-file"]} (${(e as NodeJS.ErrnoException).code ?? "error"})`,
      );
    }
  }
  return f.body;
}

export function parseData(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new UsageError('--data must be JSON, for example --data \'{"version":"1.2"}\'');
  }
}

/** The input from flags alone; null fields are what a guided session would ask for. */
export async function inputFromFlags(ctx: Ctx): Promise<GivenInput> {
  const f = ctx.flags;
  const body = await bodyFrom(ctx);
  if (body !== undefined && f.template !== undefined)
    throw new UsageError("give text or --template, not both");
  if (f.data !== undefined && f.template === undefined) throw new UsageError("--data goes with --template");
  const input: GivenInput = {};
  if (f.brand !== undefined) input.brand = f.brand;
  if (body !== undefined) input.content = { body };
  if (f.template !== undefined) {
    input.template = f.template;
    input.data = parseData(f.data) ?? {};
  }
  const channels = list(f.channels);
  if (channels?.length) input.channels = channels;
  const attach = mediaSources(f.media, f.alt);
  if (attach.length) input.attach = attach;
  return input;
}

/** Names the first missing flag (exit 2) for a command that cannot ask. */
export function requireInput(given: GivenInput): { input: PostInput; attach: MediaSource[] } {
  const { attach = [], ...input } = given;
  if (!input.brand) throw new UsageError("--brand is required (no terminal to ask on)");
  if (!input.content && !input.template && !attach.length)
    throw new UsageError("--body, --body-file or --template is required (no terminal to ask on)");
  return { input: input as PostInput, attach };
}

/** --at: now, next_slot, an RFC 3339 time, or a local "YYYY-MM-DD HH:MM". */
export function parseAt(raw: string): string {
  const s = raw.trim();
  if (s === "now" || s === "next_slot") return s;
  const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?$/.exec(s);
  if (local) {
    const d = new Date(`${local[1]}T${local[2]}${local[3] ?? ":00"}`);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  if (!Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s)) return s;
  throw new UsageError(
    `--at must be now, next_slot, an RFC 3339 time or "YYYY-MM-DD HH:MM", not ${JSON.stringify(raw)}`,
  );
}
