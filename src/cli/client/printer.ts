// One printer for every client command: aligned columns with a header on a terminal, tab-separated values without
// one when piped (so `cut -f` and `while read` work), JSON with --json [fields], and --jq through a real jq.
import * as jq from "jq-wasm";
import { visibleLength } from "./color.ts";
import type { Ctx } from "./command.ts";

export interface Column<T> {
  header: string;
  value(row: T): string | null | undefined;
  /** Longest a cell may be on a terminal before it is cut with an ellipsis. */
  max?: number;
  /** Colours a terminal cell (never used for TSV). */
  style?(cell: string, row: T): string;
}

/** Wants JSON: --json with fields, or --jq. */
export const wantsJson = (ctx: Ctx) => ctx.global.json !== null || ctx.global.jq !== undefined;

function pick(obj: unknown, fields: string[] | null): unknown {
  if (!fields || fields.length === 0 || !obj || typeof obj !== "object") return obj;
  const o = obj as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, o[f] ?? null]));
}

/** Throws for a --json field the command does not have (a command that changes things checks before it acts). */
export function checkJsonFields(ctx: Ctx): void {
  const fields = ctx.global.json;
  if (!fields?.length || !ctx.cmd.fields) return;
  const unknown = fields.filter((f) => !ctx.cmd.fields!.includes(f));
  if (unknown.length)
    throw new Error(
      `unknown JSON field ${unknown.map((f) => JSON.stringify(f)).join(", ")}; run with --json alone for the list`,
    );
}

/** Prints JSON: the chosen fields of each object, through --jq when given. */
export async function printJson(ctx: Ctx, value: unknown, opts: { select?: boolean } = {}): Promise<void> {
  const fields = opts.select === false ? null : ctx.global.json;
  if (opts.select !== false) checkJsonFields(ctx);
  const shaped = Array.isArray(value) ? value.map((v) => pick(v, fields)) : pick(value, fields);
  if (ctx.global.jq !== undefined) {
    ctx.io.out(await runJq(shaped, ctx.global.jq));
    return;
  }
  ctx.io.out(JSON.stringify(shaped, null, 2));
}

/** Runs a jq program over the value; strings come out raw, as `jq -r` (and gh --jq) prints them. */
export async function runJq(value: unknown, program: string): Promise<string> {
  try {
    return (await jq.raw(JSON.stringify(value), program, ["-r"])).replace(/\n$/, "");
  } catch (e) {
    const msg = ((e as Error).message ?? String(e)).trim().split("\n");
    throw new Error(`--jq: ${msg.filter((l) => !/compile error/.test(l)).join("; ") || msg[0]}`);
  }
}

/** `--json` without fields: the fields the command offers. */
export function printFields(ctx: Ctx): void {
  ctx.io.out(
    `Specify one or more comma-separated fields for --json:\n${(ctx.cmd.fields ?? []).map((f) => `  ${f}`).join("\n")}`,
  );
}

const oneLine = (s: string) => s.replace(/[\t\r\n]+/g, " ");

function cut(s: string, max: number | undefined): string {
  if (!max || s.length <= max) return s;
  return `${s.slice(0, max - 1)}…`;
}

/** A list: JSON when asked, else a table (terminal) or TSV (pipe). */
export async function printList<T>(ctx: Ctx, rows: T[], columns: Column<T>[]): Promise<void> {
  if (wantsJson(ctx)) return await printJson(ctx, rows);
  if (!ctx.stdoutTty) {
    if (rows.length)
      ctx.io.out(rows.map((r) => columns.map((col) => oneLine(col.value(r) ?? "")).join("\t")).join("\n"));
    return;
  }
  if (rows.length === 0) {
    ctx.io.err("Nothing to show.");
    return;
  }
  const cells = rows.map((r) => columns.map((col) => cut(oneLine(col.value(r) ?? ""), col.max)));
  const widths = columns.map((col, i) => Math.max(col.header.length, ...cells.map((row) => row[i]!.length)));
  const line = (parts: string[]) =>
    parts
      .map((p, i) =>
        i === parts.length - 1 ? p : p + " ".repeat(Math.max(0, widths[i]! - visibleLength(p))),
      )
      .join("  ")
      .trimEnd();
  const out = [line(columns.map((col) => ctx.c.bold(col.header)))];
  cells.forEach((row, r) => {
    out.push(line(row.map((cell, i) => columns[i]!.style?.(cell, rows[r]!) ?? cell)));
  });
  ctx.io.out(out.join("\n"));
}

/** One object: JSON when asked, else `Label: value` lines (the same on a terminal and in a pipe). */
export async function printObject(
  ctx: Ctx,
  obj: unknown,
  lines: [string, string | null | undefined][],
  extra?: string,
): Promise<void> {
  if (wantsJson(ctx)) return await printJson(ctx, obj);
  const shown = lines.filter(([, v]) => v !== null && v !== undefined && v !== "");
  const w = Math.max(...shown.map(([k]) => k.length)) + 1;
  // A value of several lines (a post's text) keeps its lines under the value column, not under the labels.
  const text = shown
    .map(
      ([k, v]) =>
        `${ctx.c.bold(`${k}:`.padEnd(w))} ${(v ?? "").replace(/\n(?=[^\n])/g, `\n${" ".repeat(w + 1)}`)}`,
    )
    .join("\n");
  ctx.io.out(extra ? `${text}\n\n${extra}` : text);
}

/** Relative on a terminal ("in 2 hours"), RFC 3339 in a pipe. */
export function when(ctx: Ctx, iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "";
  if (!ctx.stdoutTty) return iso;
  const ms = Date.parse(iso) - now;
  const abs = Math.abs(ms);
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
  ];
  for (const [size, name] of units) {
    if (abs >= size) {
      const n = Math.round(abs / size);
      const s = `${n} ${name}${n === 1 ? "" : "s"}`;
      return ms > 0 ? `in ${s}` : `${s} ago`;
    }
  }
  return ms > 0 ? "in a moment" : "just now";
}
