// --media values: each a media ID or a local file. Every value is checked before anything is sent (a typo is a
// usage error, not a half-made post); files are then uploaded one at a time (POST /v1/media, streamed from disk)
// into the post's brand, and their IDs take their places in order.
import { accessSync, constants, statSync } from "node:fs";
import { basename } from "node:path";
import type { Ctx } from "../client/command.ts";
import { streamedForm } from "../client/multipart.ts";
import { spinner } from "../client/prompt.ts";
import { statusLine } from "../client/status-line.ts";
import { UsageError } from "../output.ts";

export interface LocalFile {
  path: string;
  name: string;
  size: number;
  type: string;
  alt?: string;
}

/** A media ID as given, or a file to upload. */
export type MediaSource = { id: string } | { file: LocalFile };

const MEDIA_ID = /^media_[0-9a-z]{26}$/;

/** What a path names: a readable regular file, or why not (undefined: nothing is there). */
function fileAt(path: string): LocalFile | string | undefined {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? undefined : `cannot read it (${code ?? "error"})`;
  }
  if (st.isDirectory()) return "is a directory";
  if (!st.isFile()) return "is not a regular file";
  try {
    accessSync(path, constants.R_OK);
  } catch (e) {
    return `cannot read it (${(e as NodeJS.ErrnoException).code ?? "error"})`;
  }
  // The server decides the type from the bytes; this is only the part's declared type.
  const type = Bun.file(path).type.split(";")[0] || "application/octet-stream";
  return { path, name: basename(path), size: st.size, type };
}

/** --media (comma-separated or repeated) and --alt (the n-th for the n-th file) as sources, in order. */
export function mediaSources(values: string[] | undefined, alts: string[] | undefined): MediaSource[] {
  const sources: MediaSource[] = [];
  for (const raw of values ?? []) {
    // A path holding a comma is taken whole when such a file exists.
    const whole = raw.includes(",") ? fileAt(raw.trim()) : undefined;
    const items = typeof whole === "object" ? [raw.trim()] : raw.split(",").map((s) => s.trim());
    for (const item of items.filter(Boolean)) {
      if (MEDIA_ID.test(item)) {
        sources.push({ id: item });
        continue;
      }
      const f = fileAt(item);
      if (typeof f === "object") sources.push({ file: f });
      else if (f) throw new UsageError(`--media ${item}: ${f}`);
      else throw new UsageError(`--media ${item}: no such file, and not a media ID (media_…)`);
    }
  }
  const files = sources.flatMap((s) => ("file" in s ? [s.file] : []));
  const given = alts ?? [];
  if (given.length > files.length)
    throw new UsageError(
      `${given.length} --alt for ${files.length} file${files.length === 1 ? "" : "s"} to upload (each --alt goes with one file, in order)`,
    );
  given.forEach((alt, i) => {
    files[i]!.alt = alt;
  });
  return sources;
}

/** 1234567 → "1.2 MiB". */
export function byteSize(n: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0
    ? `${n} ${n === 1 ? "byte" : "bytes"}`
    : `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/**
 * The media IDs in order, uploading each file into the brand. `uploaded` collects the IDs made here, so a caller
 * that fails later can remove them. With stderr a terminal each upload shows its progress there and ends as one
 * line (name, size, ID), in the guided session's frame when `guided`; stdout is left to the command's output.
 */
export async function attachMedia(
  ctx: Ctx,
  brand: string,
  sources: MediaSource[],
  uploaded: string[],
  guided = false,
): Promise<string[]> {
  const ids: string[] = [];
  for (const s of sources) {
    if ("id" in s) {
      ids.push(s.id);
      continue;
    }
    const f = s.file;
    const label = `${f.name} (${byteSize(f.size)})`;
    const report = ctx.stderrTty ? progress(ctx, guided) : null;
    report?.update(`Uploading ${label}`);
    const form = streamedForm(
      { brand, ...(f.alt !== undefined ? { alt: f.alt } : {}) },
      { field: "file", path: f.path, filename: f.name, size: f.size, type: f.type },
      (sent) => report?.update(`Uploading ${label} ${Math.floor((sent / f.size) * 100)}%`),
    );
    try {
      const r = await ctx.api("POST", "/v1/media", { stream: form });
      uploaded.push(r.body.id);
      ids.push(r.body.id);
      report?.done(`Uploaded ${label} ${r.body.id}`);
    } catch (e) {
      report?.failed(`Could not upload ${label}`);
      throw e;
    }
  }
  return ids;
}

interface Progress {
  update(text: string): void;
  done(text: string): void;
  failed(text: string): void;
}

function progress(ctx: Ctx, guided: boolean): Progress {
  if (guided) {
    const s = spinner(process.stderr);
    let started = false;
    return {
      update(text) {
        if (started) s.message(text);
        else s.start(text);
        started = true;
      },
      done: (text) => s.stop(text),
      failed: (text) => s.error(text),
    };
  }
  const line = statusLine();
  return {
    update: (text) => line.update(text),
    done: (text) => line.done(`${ctx.c.green("✓")} ${text}`),
    // The error itself follows on the next line, as every command prints it.
    failed: (text) => line.done(`${ctx.c.red("✗")} ${text}`),
  };
}

/**
 * Removes media uploaded for a post that was not made (they would otherwise wait a day to be pruned). `tell`: at a
 * terminal, say so, since an "Uploaded" line for each is already on the screen.
 */
export async function discardUploads(ctx: Ctx, ids: string[], tell = false): Promise<void> {
  for (const id of ids) await ctx.api("DELETE", `/v1/media/${id}`).catch(() => {});
  if (tell && ids.length && ctx.stderrTty)
    ctx.io.err(`Removed what was uploaded (${ids.join(", ")}); no post was created.`);
}
