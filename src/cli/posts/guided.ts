// The guided `svc posts create` at a terminal: brand, channels, text or template and data, files to attach (each
// with its alt text; uploaded before the preview), the preview with any violations (edit until it fits), then when.
import type { Ctx } from "../client/command.ts";
import { brandInfo, channelsById } from "../client/names.ts";
import { listItems } from "../client/pages.ts";
import { ask, intro, logStep, logWarn, note } from "../client/prompt.ts";
import { localTime, utcOf } from "../client/zone.ts";
import { UsageError } from "../output.ts";
import { AT_FORMS, type GivenInput, type PostInput, parseAt, parseData } from "./input.ts";
import { attachMedia, type MediaSource, mediaSources } from "./media.ts";
import { type Preview, renderPreview, violationLines } from "./renditions.ts";

/** `uploaded` collects the media uploaded here, for the caller to remove if the post is not made. */
export async function guidedInput(ctx: Ctx, given: GivenInput, uploaded: string[]): Promise<PostInput> {
  intro("New post");
  const { attach: givenMedia, ...rest } = given;
  const input: Partial<PostInput> = rest;
  if (!input.brand) {
    const brands = await listItems(ctx, "/v1/brands", {});
    if (brands.length === 0) throw new Error("this org has no brand yet; create one first");
    input.brand =
      brands.length === 1
        ? brands[0].slug
        : await ask.select(
            "Which brand?",
            brands.map((b) => ({ value: b.slug as string, label: b.name as string, hint: b.slug as string })),
          );
    if (brands.length === 1) logStep(`Brand: ${brands[0].name}`);
  }
  if (!input.channels) {
    const channels = (await listItems(ctx, "/v1/channels", { brand: input.brand })).filter(
      (ch) => ch.status === "active",
    );
    if (channels.length === 0) throw new Error(`brand ${input.brand} has no active channel in this mode`);
    if (channels.length === 1) logStep(`Channel: ${channels[0].display_name ?? channels[0].provider}`);
    input.channels =
      channels.length === 1
        ? [channels[0].id as string]
        : await ask.multiselect(
            "Which channels?",
            channels.map((ch) => ({
              value: ch.id as string,
              label:
                `${ch.emulates ? `${ch.provider} (${ch.emulates})` : ch.provider} ${ch.display_name ?? ch.handle ?? ""}`.trim(),
              hint: ch.id as string,
            })),
            channels.map((ch) => ch.id as string),
          );
  }
  if (!input.content && !input.template) {
    const kind = await ask.select("Text or template?", [
      { value: "text", label: "Write the text" },
      { value: "template", label: "Use a template" },
    ]);
    if (kind === "text") input.content = { body: await ask.lines("Text") };
    else {
      const templates = await listItems(ctx, "/v1/templates", { brand: input.brand });
      if (templates.length === 0) throw new Error(`brand ${input.brand} has no template`);
      input.template = await ask.select(
        "Which template?",
        templates.map((t) => ({ value: t.key as string, label: t.name ?? t.key, hint: t.key as string })),
      );
      input.data = await askData();
    }
  }
  const attach = givenMedia ?? (await askFiles());
  if (attach.length) input.media = await attachMedia(ctx, input.brand!, attach, uploaded, true);
  // Preview until it fits (or the person gives up).
  for (;;) {
    const p = (await ctx.api("POST", "/v1/posts/preview", { body: input })).body as Preview;
    const channels = await channelsById(ctx);
    note(renderPreview(p, ctx.c, channels), "Preview");
    const problems = violationLines(p, channels);
    for (const line of problems) logWarn(line);
    // Networks the text is too long for: --fit's choices are offered for them, as the flag would set them.
    const long = [
      ...new Set(
        p.renditions.filter((r) => r.violations.some((v) => v.code === "too_long")).map((r) => r.provider),
      ),
    ];
    const on = long.join(", ");
    const choice = await ask.select(problems.length ? "It does not fit every channel." : "Looks right?", [
      ...(problems.length ? [] : [{ value: "go" as const, label: "Continue" }]),
      { value: "edit" as const, label: input.template ? "Edit the data" : "Edit the text" },
      ...(long.length
        ? [
            { value: "thread" as const, label: `Make it a thread on ${on}`, hint: `--fit ${long[0]}=thread` },
            { value: "truncate" as const, label: `Cut it short on ${on}`, hint: `--fit ${long[0]}=truncate` },
          ]
        : []),
      { value: "cancel" as const, label: "Cancel" },
    ]);
    if (choice === "go") break;
    if (choice === "cancel") throw new Error("cancelled; nothing was created");
    if (choice === "thread" || choice === "truncate") {
      input.fit = { ...input.fit, ...Object.fromEntries(long.map((n) => [n, choice])) };
      continue;
    }
    if (input.template) input.data = await askData(JSON.stringify(input.data));
    else input.content = { body: await ask.lines("Text", { initial: input.content?.body }) };
  }
  return input as PostInput;
}

/** Files to attach (none is fine), each with its alt text. */
async function askFiles(): Promise<MediaSource[]> {
  for (;;) {
    const raw = await ask.text("Attach files? (paths, comma-separated; Enter for none)", { required: false });
    if (!raw) return [];
    let sources: MediaSource[];
    try {
      sources = mediaSources([raw], undefined);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      logWarn(e.message.replace(/^--media /, ""));
      continue;
    }
    for (const s of sources)
      if ("file" in s) {
        const alt = await ask.text(
          `Alt text for ${s.file.name} (what a screen reader says; Enter for none)`,
          {
            required: false,
          },
        );
        if (alt) s.file.alt = alt;
      }
    return sources;
  }
}

async function askData(initial?: string): Promise<unknown> {
  for (;;) {
    const raw = await ask.text("Data (JSON)", { initial: initial ?? "{}" });
    try {
      return parseData(raw);
    } catch {
      logWarn("That is not JSON.");
    }
  }
}

/** When to publish; a typed time is in the brand's zone, which the question names. */
export async function askWhen(ctx: Ctx, brand: string): Promise<string> {
  const choice = await ask.select("When?", [
    { value: "next_slot", label: "At the next slot", hint: "the brand's next free slot" },
    { value: "now", label: "Now" },
    { value: "at", label: "At a time" },
  ]);
  if (choice !== "at") return choice;
  const info = await brandInfo(ctx, brand);
  const zone = info ? `in ${info.timezone}, ${info.slug}'s time zone` : "with an offset";
  for (;;) {
    const raw = await ask.text(`When (YYYY-MM-DD HH:MM ${zone}; or RFC 3339)`);
    try {
      const at = parseAt(raw, "the time");
      const local = localTime(raw);
      if (local && info) {
        const utc = utcOf(local, info.timezone);
        logStep(`${local.raw} ${info.timezone} is ${utc}`);
        return utc;
      }
      if (typeof at === "string") return at;
      logWarn(`Give the time with an offset; this credential cannot read the brand's zone (${AT_FORMS}).`);
    } catch (e) {
      logWarn((e as Error).message);
    }
  }
}
