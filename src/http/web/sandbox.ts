// GET /sandbox/<target id>: the sandbox network's "post page", the permalink a sandbox publish returns. Public
// like a post on a real network: whoever has the link sees what was posted, and nothing else.
import type { App } from "../../app/context.ts";
import { isUnavailable } from "../../db/index.ts";
import type { SandboxPostsTable } from "../../db/tables/channels.ts";
import type { SandboxMediaTable } from "../../db/tables/media.ts";
import { mediaUrl } from "../../domain/media/link.ts";
import { iso } from "../../lib/clock.ts";
import { newId } from "../../lib/ids.ts";
import { sandboxAnchor, sandboxMediaFor, sandboxPostsFor } from "../../platforms/sandbox/posts.ts";
import { SECURITY_HEADERS } from "../respond.ts";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}p{white-space:pre-wrap;margin:0}
small,li{color:#666}img,video{max-width:100%;height:auto}figure{margin:.5rem 0}ul{margin:.5rem 0 0;padding-left:1.2rem}`;

function page(app: App, status: number, title: string, body: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body>${body}</body></html>`;
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      // The page runs no script and loads nothing but a video's bytes from this install: text someone posted
      // cannot make it do more.
      "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline'; img-src data:; media-src ${new URL(app.config.baseUrl).origin}`,
      "Request-Id": newId("req"),
      ...SECURITY_HEADERS,
    },
  });
}

function part(app: App, p: SandboxPostsTable, total: number, received: SandboxMediaTable[]): string {
  const media = JSON.parse(p.media) as { id: string; mime: string; alt: string | null }[];
  const list = media.length
    ? `<ul>${media.map((m) => `<li>${escapeHtml(m.mime)} ${escapeHtml(m.id)}${m.alt ? `: ${escapeHtml(m.alt)}` : ""}</li>`).join("")}</ul>`
    : "";
  // The images as the network received them (resized where its rules needed), inline: the page loads nothing.
  const shown = received
    .filter((r) => r.attempt === p.attempt && r.part_index === p.part_index && r.bytes)
    .map((r) => {
      const alt = media[r.position]?.alt ?? "";
      const src = `data:${r.type};base64,${Buffer.from(r.bytes!).toString("base64")}`;
      return `<figure><img src="${src}" alt="${escapeHtml(alt)}" width="${r.width ?? ""}" height="${r.height ?? ""}"><figcaption><small>${escapeHtml(r.type)} · ${r.width}×${r.height} · ${r.size} bytes</small></figcaption></figure>`;
    })
    .join("");
  // A video's bytes stay in the bucket: it plays from a signed link to this install (made afresh for each view,
  // valid an hour), as a network that took the file would show it.
  const videos = received
    .filter(
      (r) =>
        r.attempt === p.attempt && r.part_index === p.part_index && !r.bytes && r.type.startsWith("video/"),
    )
    .map((r) => {
      const alt = media[r.position]?.alt ?? "";
      const src = mediaUrl(app, r.media_id, "sandbox");
      return `<figure><video controls preload="metadata" src="${escapeHtml(src)}" width="${r.width ?? ""}" height="${r.height ?? ""}" aria-label="${escapeHtml(alt)}"></video><figcaption><small>${escapeHtml(r.type)} · ${r.width}×${r.height} · ${r.size} bytes</small></figcaption></figure>`;
    })
    .join("");
  const label = total > 1 ? `Part ${p.part_index + 1}` : "Post";
  return `<article id="${sandboxAnchor(p.attempt, p.part_index)}"><small>${label} · attempt ${p.attempt} · ${iso(p.created_at)}</small>
<p>${escapeHtml(p.text)}</p>${shown}${videos}${list}</article>`;
}

export async function sandboxPage(app: App, targetId: string): Promise<Response> {
  let rows: SandboxPostsTable[];
  let received: SandboxMediaTable[];
  try {
    rows = await sandboxPostsFor(app, targetId);
    received = rows.length ? await sandboxMediaFor(app, targetId) : [];
  } catch (e) {
    if (!isUnavailable(e)) app.log.error("sandbox page failed", { error: String(e) });
    return page(app, 503, "Sandbox unavailable", "<h1>Sandbox unavailable</h1><p>Try again in a moment.</p>");
  }
  if (rows.length === 0)
    return page(
      app,
      404,
      "Not found",
      "<h1>Not found</h1><p>Nothing was posted to the sandbox under this link.</p>",
    );
  const parts = new Set(rows.map((r) => r.part_index)).size;
  return page(
    app,
    200,
    `Sandbox post ${targetId}`,
    `<h1>Sandbox post</h1><small>Posted by a test-mode channel of svc; it reached no real network.</small>
${rows.map((r) => part(app, r, parts, received)).join("\n")}`,
  );
}
