// Pieces the publishing pages share (composer, posts, approvals): problems with their codes beside a field, a
// channel's name with its network and handle, status tags, and whether the org may change anything now.
import type { Frame } from "./frame.ts";
import { esc } from "./html.ts";

/** A problem as the API states it: its stable code and message. */
export interface Shown {
  code: string;
  message: string;
}
/** Problems by the field (`param`) they concern; "" holds those about the form as a whole. */
export type Problems = Record<string, Shown[]>;

/** Read-only and suspended orgs change nothing: their pages show every change disabled. */
export const canChange = (f: Frame) => f.org?.status === "active";

export function FieldProblems(props: { id: string; problems?: Shown[] | undefined }) {
  if (!props.problems?.length) return null;
  return (
    <div class="error" id={props.id}>
      {props.problems.map((p) => (
        <p>
          {p.message} <code class="code">{p.code}</code>
        </p>
      ))}
    </div>
  );
}

/** The problems a page does not show beside a field of its own. */
export function OtherProblems(props: { problems?: Problems | undefined; shown: (param: string) => boolean }) {
  const rest = Object.entries(props.problems ?? {}).filter(([k]) => !props.shown(k));
  if (!rest.length) return null;
  return (
    <div class="alert error" role="alert" id="form-problems">
      {rest.flatMap(([, ps]) =>
        ps.map((p) => (
          <p>
            {p.message} <code class="code">{p.code}</code>
          </p>
        )),
      )}
    </div>
  );
}

export interface ChannelLabel {
  id: string;
  brand: string;
  provider: string;
  emulates: string | null;
  display_name: string | null;
  handle: string | null;
  status: string;
}

/** The network a channel posts to (or, for a sandbox channel, the one it checks posts against). */
export const networkOf = (c: { provider: string; emulates: string | null }) =>
  c.provider === "sandbox" ? (c.emulates ?? "bluesky") : c.provider;

export const NETWORK_NAMES: Record<string, string> = {
  bluesky: "Bluesky",
  mastodon: "Mastodon",
  gab: "Gab",
  discord: "Discord",
  telegram: "Telegram",
  slack: "Slack",
  x: "X",
  threads: "Threads",
  linkedin: "LinkedIn",
  linkedin_pages: "LinkedIn Pages",
  facebook: "Facebook",
  instagram: "Instagram",
  pinterest: "Pinterest",
  tiktok: "TikTok",
  youtube: "YouTube",
};
export const networkName = (n: string) => NETWORK_NAMES[n] ?? n;

export function NetworkTag(props: { c: { provider: string; emulates: string | null } }) {
  const n = networkName(networkOf(props.c));
  return (
    <span class={`tag net net-${networkOf(props.c)}`}>
      {props.c.provider === "sandbox" ? `${n} · sandbox` : n}
    </span>
  );
}

const STATUS_TEXT: Record<string, string> = {
  scheduled: "Scheduled",
  pending_approval: "Waiting for approval",
  publishing: "Publishing",
  published: "Published",
  partially_published: "Partly published",
  failed: "Failed",
  canceled: "Canceled",
  rejected: "Rejected",
  needs_attention: "Needs attention",
  queued: "Queued",
  held: "Held for approval",
};

/** StatusTag as a string (views/html.ts), for rows built as strings. */
export const statusTagHtml = (status: string) =>
  `<span class="status status-${esc(status)}">${esc(STATUS_TEXT[status] ?? status)}</span>`;

/** NetworkTag as a string (views/html.ts). */
export function networkTagHtml(c: { provider: string; emulates: string | null }) {
  const net = networkOf(c);
  const n = networkName(net);
  return `<span class="tag net net-${esc(net)}">${esc(c.provider === "sandbox" ? `${n} · sandbox` : n)}</span>`;
}

/** FieldProblems as a string (views/html.ts). */
export function fieldProblemsHtml(id: string, problems: Shown[] | undefined) {
  if (!problems?.length) return "";
  const ps = problems
    .map((p) => `<p>${esc(p.message)} <code class="code">${esc(p.code)}</code></p>`)
    .join("");
  return `<div class="error" id="${esc(id)}">${ps}</div>`;
}

export function StatusTag(props: { status: string; id?: string }) {
  return (
    <span class={`status status-${props.status}`} id={props.id}>
      {STATUS_TEXT[props.status] ?? props.status}
    </span>
  );
}
