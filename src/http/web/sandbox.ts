// GET /sandbox/<target id>: the sandbox network's "post page", the permalink a sandbox publish returns. Public
// like a post on a real network: whoever has the link sees what was posted, and nothing else.

import type { JSX } from "hono/jsx/jsx-runtime";
import {
  type SandboxFigure,
  SandboxNotice,
  type SandboxPart,
  SandboxPostPage,
} from "../../../views/sandbox.tsx";
import type { App } from "../../app/context.ts";
import { isUnavailable } from "../../db/index.ts";
import type { SandboxPostsTable } from "../../db/tables/channels.ts";
import type { SandboxMediaTable } from "../../db/tables/media.ts";
import { mediaUrl } from "../../domain/media/link.ts";
import { iso } from "../../lib/clock.ts";
import { newId } from "../../lib/ids.ts";
import { sandboxAnchor, sandboxMediaFor, sandboxPostsFor } from "../../platforms/sandbox/posts.ts";
import { SECURITY_HEADERS } from "../respond.ts";

function page(app: App, status: number, view: JSX.Element): Response {
  return new Response(`<!doctype html>${view.toString()}`, {
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

/** One part as the page shows it: the images as the network received them, a video from a signed link. */
function part(app: App, p: SandboxPostsTable, total: number, received: SandboxMediaTable[]): SandboxPart {
  const media = JSON.parse(p.media) as { id: string; mime: string; alt: string | null }[];
  const figures: SandboxFigure[] = received
    .filter((r) => r.attempt === p.attempt && r.part_index === p.part_index)
    .flatMap((r): SandboxFigure[] => {
      const common = {
        alt: media[r.position]?.alt ?? "",
        type: r.type,
        width: r.width,
        height: r.height,
        size: r.size,
      };
      // An image is inline (resized where its rules needed): the page loads nothing.
      if (r.bytes)
        return [
          {
            ...common,
            kind: "image",
            src: `data:${r.type};base64,${Buffer.from(r.bytes).toString("base64")}`,
          },
        ];
      // A video's bytes stay in the bucket: it plays from a signed link to this install (made afresh for each
      // view, valid an hour), as a network that took the file would show it.
      if (r.type.startsWith("video/"))
        return [{ ...common, kind: "video", src: mediaUrl(app, r.media_id, "sandbox") }];
      return [];
    })
    // Images first, then videos, as the network shows them.
    .sort((x, y) => (x.kind === y.kind ? 0 : x.kind === "image" ? -1 : 1));
  return {
    anchor: sandboxAnchor(p.attempt, p.part_index),
    label: total > 1 ? `Part ${p.part_index + 1}` : "Post",
    attempt: p.attempt,
    at: iso(p.created_at),
    text: p.text,
    figures,
    media,
  };
}

export async function sandboxPage(app: App, targetId: string): Promise<Response> {
  let rows: SandboxPostsTable[];
  let received: SandboxMediaTable[];
  try {
    rows = await sandboxPostsFor(app, targetId);
    received = rows.length ? await sandboxMediaFor(app, targetId) : [];
  } catch (e) {
    if (!isUnavailable(e)) app.log.error("sandbox page failed", { error: String(e) });
    return page(app, 503, SandboxNotice({ title: "Sandbox unavailable", text: "Try again in a moment." }));
  }
  if (rows.length === 0)
    return page(
      app,
      404,
      SandboxNotice({ title: "Not found", text: "Nothing was posted to the sandbox under this link." }),
    );
  const parts = new Set(rows.map((r) => r.part_index)).size;
  return page(
    app,
    200,
    SandboxPostPage({
      title: `Sandbox post ${targetId}`,
      parts: rows.map((r) => part(app, r, parts, received)),
    }),
  );
}
