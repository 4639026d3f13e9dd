// The post input flags shared by preview and create: --brand, --body | --body-file FILE|- | --template KEY[@N]
// --data JSON, --channels, --media IDS|FILES with --alt, --fit NETWORK=MODE; and --at/--by times.
import { readFileSync } from "node:fs";
import type { Ctx } from "../client/command.ts";
import { type BrandInfo, brandInfo } from "../client/names.ts";
import { type LocalTime, localTime, utcOf } from "../client/zone.ts";
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
  fit: { type: "string", multiple: true },
  "first-comment": { type: "string" },
} as const;

export const INPUT_HELP = `  --brand BRAND        the brand (ID or slug)
  --body TEXT          the text (a line holding only {{thread}} starts a new thread part)
  --body-file FILE|-   the text from a file, or stdin
  --template KEY[@N]   a template by key (or key@version, or ID) instead of text
  --data JSON          the template's data
  --channels IDS       only these channels (comma-separated or repeated; default: every active one)
  --media IDS|FILES    media to attach, in order: media IDs or local files, which are uploaded first
                       (comma-separated or repeated; images, or a video on an install with S3)
  --alt TEXT           alt text for an uploaded file (repeated: the n-th --alt for the n-th file)
  --fit NETWORK=MODE   what to do with text too long for a network: error (default), truncate, or thread
                       (split into a thread where the network has threads); comma-separated or repeated,
                       for example --fit bluesky=thread,x=truncate
  --first-comment TEXT the account's own first reply, posted right after the post (networks with replies)`;

export interface PostInput {
  brand: string;
  content?: { body: string };
  template?: string;
  data?: unknown;
  channels?: string[];
  media?: string[];
  fit?: Record<string, Fit>;
  first_comment?: string;
}

const FITS = ["error", "truncate", "thread"] as const;
type Fit = (typeof FITS)[number];

/** --fit bluesky=thread,x=truncate: network=mode pairs; the server names a network it does not know. */
export function parseFit(raw: string[] | undefined): Record<string, Fit> | undefined {
  const pairs = list(raw);
  if (!pairs?.length) return undefined;
  const fit: Record<string, Fit> = {};
  for (const pair of pairs) {
    const m = /^([a-z_]+)=([a-z]+)$/.exec(pair);
    if (!m || !FITS.includes(m[2] as Fit))
      throw new UsageError(
        `--fit takes NETWORK=MODE with MODE error, truncate or thread (for example bluesky=thread), not ${JSON.stringify(pair)}`,
      );
    fit[m[1]!] = m[2] as Fit;
  }
  return fit;
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
  const fit = parseFit(f.fit);
  if (fit) input.fit = fit;
  if (f["first-comment"] !== undefined) input.first_comment = f["first-comment"];
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

/** --at or --by as typed: now, next_slot, an RFC 3339 time with its offset, or a wall-clock time without a zone. */
export type At = string | LocalTime;

export const AT_FORMS = `now, next_slot, "YYYY-MM-DD HH:MM" (in the brand's time zone) or an RFC 3339 time with an offset`;

/** Checks the form before anything is sent; a time without a zone is read in the brand's zone by `resolveAt`. */
export function parseAt(raw: string, flag = "--at"): At {
  const s = raw.trim();
  if (s === "now" || s === "next_slot") return s;
  const local = localTime(s);
  if (local) return local;
  // RFC 3339 with Z or an offset: an instant, whatever the zone.
  if (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(s) &&
    !Number.isNaN(Date.parse(s))
  )
    return s;
  throw new UsageError(`${flag} must be ${AT_FORMS}, not ${JSON.stringify(raw)}`);
}

/**
 * The times to send: a wall-clock time is read in the brand's zone, and at a terminal the CLI says so on stderr
 * (with the UTC instant it sent), since the machine's own zone may differ from the brand's.
 */
export async function resolveAt(
  ctx: Ctx,
  brand: string,
  times: { flag: string; at: At | undefined }[],
): Promise<{ values: (string | undefined)[]; brand: BrandInfo | null }> {
  const needsZone = times.some((t) => t.at !== undefined && typeof t.at !== "string");
  const info = needsZone ? await brandInfo(ctx, brand) : null;
  const values = times.map(({ flag, at }) => {
    if (at === undefined || typeof at === "string") return at;
    if (!info)
      throw new UsageError(
        `${flag} ${JSON.stringify(at.raw)} has no zone and this credential cannot read the brand's; add an offset (for example ${at.raw.replace(" ", "T")}+01:00)`,
      );
    const utc = utcOf(at, info.timezone);
    // At a terminal only: in a pipe stdout is the ID and stderr stays quiet unless something fails.
    if (ctx.stderrTty)
      ctx.io.err(`${flag} ${at.raw} is in ${info.slug}'s time zone, ${info.timezone}: ${utc}`);
    return utc;
  });
  return { values, brand: info };
}
