// How a preview reads: each channel's text with its length against the limit, then every violation with its
// channel.
import type { Colors } from "../client/color.ts";
import type { ChannelInfo } from "../client/names.ts";

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

type Channels = ReadonlyMap<string, ChannelInfo>;

/** `Sandbox Bluesky (sandbox, chan_…)`: the name a person knows, then what the ID and network are. */
function channelLabel(r: Rendition, channels: Channels): { name: string; rest: string } {
  const ch = channels.get(r.channel);
  return ch ? { name: ch.name, rest: `${r.provider}, ${r.channel}` } : { name: r.provider, rest: r.channel };
}

export function renderPreview(p: Preview, c: Colors, channels: Channels = new Map()): string {
  return p.renditions
    .map((r) => {
      const { name, rest } = channelLabel(r, channels);
      const head = `${c.bold(name)} ${c.dim(`(${rest})`)}`;
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

/** One line per violation: `Sandbox Bluesky (sandbox, chan_…): message (code)`. */
export function violationLines(p: Preview, channels: Channels = new Map()): string[] {
  return p.renditions.flatMap((r) =>
    r.violations.map(
      (v) =>
        `${((l) => `${l.name} (${l.rest})`)(channelLabel(r, channels))}${typeof v.part === "number" && r.parts.length > 1 ? ` part ${v.part + 1}` : ""}: ${v.message} (${v.code})`,
    ),
  );
}
