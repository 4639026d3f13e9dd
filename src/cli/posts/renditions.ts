// How a preview reads: each channel's text with its length against the limit, then every violation with its
// channel.
import type { Colors } from "../client/color.ts";

export interface Violation {
  code: string;
  message: string;
  part?: number | null;
}

export interface Rendition {
  provider: string;
  channel: string;
  parts: string[];
  lengths: number[];
  limit: number | null;
  violations: Violation[];
}

export interface Preview {
  valid: boolean;
  renditions: Rendition[];
}

export function renderPreview(p: Preview, c: Colors): string {
  return p.renditions
    .map((r) => {
      const head = `${c.bold(r.provider)} ${c.dim(r.channel)}`;
      const parts = r.parts
        .map((text, i) => {
          const len = r.lengths[i] ?? text.length;
          const over = r.limit !== null && len > r.limit;
          const count = r.limit === null ? `${len}` : `${len}/${r.limit}`;
          const label = r.parts.length > 1 ? `part ${i + 1}, ` : "";
          return `  [${label}${over ? c.red(count) : count}]\n${text.replace(/^/gm, "  ")}`;
        })
        .join("\n");
      return `${head}\n${parts}`;
    })
    .join("\n\n");
}

/** One line per violation: `chan_… (bluesky): message (code)`. */
export function violationLines(p: Preview): string[] {
  return p.renditions.flatMap((r) =>
    r.violations.map(
      (v) =>
        `${r.channel} (${r.provider})${typeof v.part === "number" && r.parts.length > 1 ? ` part ${v.part + 1}` : ""}: ${v.message} (${v.code})`,
    ),
  );
}
