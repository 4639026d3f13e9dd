// GET /sandbox/<target id>: the sandbox network's "post page", the permalink a sandbox publish returns. Public
// like a post on a real network: whoever has the link sees what was posted, and nothing else.

import type { JSX } from "hono/jsx/jsx-runtime";
import { SandboxNotice, type SandboxPost, SandboxPostPage } from "../../../views/sandbox.tsx";
import type { App } from "../../app/context.ts";
import { databaseDown } from "../../domain/availability.ts";
import { sandboxPost } from "../../domain/sandbox/page.ts";
import { newId } from "../../lib/ids.ts";
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

export async function sandboxPage(app: App, targetId: string): Promise<Response> {
  let post: SandboxPost | null;
  try {
    post = await sandboxPost(app, targetId);
  } catch (e) {
    if (!databaseDown(e)) app.log.error("sandbox page failed", { error: String(e) });
    return page(app, 503, SandboxNotice({ title: "Sandbox unavailable", text: "Try again in a moment." }));
  }
  if (!post)
    return page(
      app,
      404,
      SandboxNotice({ title: "Not found", text: "Nothing was posted to the sandbox under this link." }),
    );
  return page(app, 200, SandboxPostPage({ title: `Sandbox post ${targetId}`, post }));
}
