// svc reports view --brand BRAND [--month YYYY-MM | --since DATE --until DATE]: one brand's report. On a terminal,
// its sections as labelled figures with the change from the period before and the top posts; in a pipe, one
// tab-separated line per figure (SECTION, FIGURE, VALUE, PREVIOUS), so `grep`, `cut` and `awk` work on it.
import type { ClientCommand, Ctx } from "../client/command.ts";
import { printJson, wantsJson } from "../client/printer.ts";
import { UsageError } from "../output.ts";

export const REPORT_FIELDS = [
  "object",
  "brand",
  "timezone",
  "livemode",
  "month",
  "since",
  "until",
  "previous_since",
  "previous_until",
  "generated_at",
  "sections",
] as const;

interface Pair {
  value: number;
  previous: number;
}
const isPair = (v: unknown): v is Pair =>
  typeof v === "object" && v !== null && "value" in v && "previous" in v && Object.keys(v).length === 2;

/** Every figure of the report as [section, figure, value, previous]: pairs, and pairs in lists by their name. */
function figures(
  sections: Record<string, Record<string, unknown> | null>,
): [string, string, number, number][] {
  const out: [string, string, number, number][] = [];
  for (const [name, s] of Object.entries(sections)) {
    if (!s) continue;
    for (const [k, v] of Object.entries(s)) {
      if (isPair(v)) out.push([name, k, v.value, v.previous]);
      else if (Array.isArray(v))
        for (const item of v) {
          if (typeof item !== "object" || item === null) continue;
          const o = item as Record<string, unknown>;
          const label = Object.values(o).find((x) => typeof x === "string");
          for (const [ik, iv] of Object.entries(o))
            if (isPair(iv)) out.push([name, `${k}.${label ?? "?"}.${ik}`, iv.value, iv.previous]);
        }
    }
  }
  return out;
}

function change(ctx: Ctx, p: Pair): string {
  if (p.previous === 0) return p.value === 0 ? ctx.c.dim("no change") : ctx.c.green("new");
  const pct = Math.round(((p.value - p.previous) / p.previous) * 100);
  const text = `${pct > 0 ? "+" : ""}${pct}% (${p.previous.toLocaleString("en-US")} before)`;
  return pct > 0 ? ctx.c.green(text) : pct < 0 ? ctx.c.red(text) : ctx.c.dim(text);
}

// biome-ignore lint/suspicious/noExplicitAny: the API's Report JSON
function printTerminal(ctx: Ctx, r: any) {
  const sections = r.sections as Record<string, Record<string, unknown> | null>;
  const lines: string[] = [];
  const period = r.month ?? `${r.since.slice(0, 10)} – ${r.until.slice(0, 10)}`;
  lines.push(ctx.c.bold(`${r.brand.name} (${r.brand.slug}) · ${period}`));
  lines.push(
    ctx.c.dim(
      `Beside ${day(Date.parse(r.previous_since), r.timezone)} – ${day(Date.parse(r.previous_until) - 1, r.timezone)}; times in ${r.timezone}${r.livemode ? "" : "; test mode"}`,
    ),
  );
  const rows = figures(sections);
  if (rows.length === 0 && !sections.top_posts) lines.push("", "Nothing to report for this period.");
  let current = "";
  const w = Math.max(0, ...rows.map(([, f]) => f.length));
  for (const [section, figure, value, previous] of rows) {
    if (section !== current) {
      lines.push("", ctx.c.bold(section.replaceAll("_", " ").toUpperCase()));
      current = section;
    }
    lines.push(
      `  ${figure.replaceAll("_", " ").padEnd(w)}  ${value.toLocaleString("en-US").padStart(9)}  ${change(ctx, { value, previous })}`,
    );
  }
  const top = sections.top_posts?.data as
    | { text: string; total: number; targets: { network: string }[] }[]
    | undefined;
  if (top?.length) {
    lines.push("", ctx.c.bold("TOP POSTS"));
    top.forEach((p, i) => {
      const text = p.text.replace(/\s+/g, " ");
      lines.push(`  ${i + 1}. ${text.length > 70 ? `${text.slice(0, 69)}…` : text}`);
      lines.push(
        `     ${ctx.c.dim(`${p.total} engagement · ${p.targets.map((t) => t.network).join(", ")}`)}`,
      );
    });
  }
  ctx.io.out(lines.join("\n"));
}

export const reportsView: ClientCommand = {
  name: "reports view",
  summary: "Show one brand's report for a month",
  usage: "svc reports view --brand BRAND [--month YYYY-MM | --since DATE --until DATE]",
  help: `Flags:
  --brand BRAND     the brand's slug or ID (required)
  --month YYYY-MM   the month in the brand's time zone (default the last whole month)
  --since, --until  a window instead: YYYY-MM-DD (until included) or RFC 3339, at most a year apart

On a terminal: each figure with its change from the period before, then the top posts. In a pipe: one line per
figure, SECTION, FIGURE, VALUE, PREVIOUS, separated by tabs.

Examples:
  svc reports view --brand acme
  svc reports view --brand acme --month 2026-03 --json sections --jq '.sections.engagement.total'`,
  options: {
    brand: { type: "string" },
    month: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
  },
  fields: REPORT_FIELDS,
  async run(ctx) {
    if (!ctx.flags.brand) throw new UsageError("--brand is required");
    const r = (
      await ctx.api("GET", "/v1/reports", {
        query: {
          brand: ctx.flags.brand,
          month: ctx.flags.month,
          since: ctx.flags.since,
          until: ctx.flags.until,
        },
      })
    ).body;
    if (wantsJson(ctx)) {
      await printJson(ctx, r);
      return 0;
    }
    if (ctx.stdoutTty) printTerminal(ctx, r);
    else {
      const rows = figures(r.sections);
      if (rows.length) ctx.io.out(rows.map((row) => row.join("\t")).join("\n"));
    }
    return 0;
  },
};

/** The brand's own calendar day of an instant (the period's end is exclusive: the caller passes its last moment). */
function day(t: number, timezone: string): string {
  return new Date(t).toLocaleDateString("en-CA", { timeZone: timezone });
}
