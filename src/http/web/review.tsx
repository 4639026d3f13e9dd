// /review/<token>: the client review link's page, for someone with no account. The token is the permission: no
// session is made or needed. A form is accepted only from this site (Sec-Fetch-Site / Origin, as every dashboard
// form) carrying the page's form token (made from the link by a key of the install: the CSRF token of a page no
// session backs). Answers are never indexed, cached, or sent to another site as a Referer (the URL holds the secret).
import type { Frame } from "../../../views/frame.ts";
import type { Shown } from "../../../views/publishing.tsx";
import { ReviewLinkInvalidPage, ReviewLinkPage } from "../../../views/review.tsx";
import { type Decision, decideByLink } from "../../domain/review-links/decide.ts";
import { reviewLinkPage } from "../../domain/review-links/page.ts";
import { ServiceError } from "../../lib/errors.ts";
import { CSP, checkCsrf, pageHeaders, redirect, render, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

// Referrer-Policy stays same-origin (every page's): no other site is sent the URL, while a form still says its
// Origin (no-referrer would make it "null", and the same-site check refuse the form).
const PRIVATE = {
  "X-Robots-Tag": "noindex, nofollow",
  // The dashboard's policy, and this page's videos from its own media route (their first frame is the poster).
  "Content-Security-Policy": `${CSP}; media-src 'self'`,
};

/**
 * A picture's answer: never indexed, kept by this browser only for a few minutes, and inert if opened on its own
 * (a tenant's upload served from our origin runs nothing: sandboxed, no sources).
 */
const pictureHeaders = (w: Web, extra: Record<string, string>) =>
  pageHeaders(w.requestId, {
    "Cache-Control": "private, max-age=300",
    "X-Robots-Tag": "noindex, nofollow",
    "Content-Security-Policy": "sandbox; default-src 'none'",
    ...extra,
  });

/** 404 for a picture the link does not show (or a link that does not work): the same for every reason. */
async function picture(w: Web, serve: () => Promise<Response>): Promise<Response> {
  try {
    return await serve();
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return new Response(null, {
      status: e.status === 403 ? 404 : e.status,
      headers: pageHeaders(w.requestId),
    });
  }
}

const thumb = (w: Web) =>
  picture(w, async () => {
    const { reviewLinkThumbnail } = await import("../../domain/review-links/media.ts");
    const t = await reviewLinkThumbnail(w.app, w.params.token ?? "", w.params.id ?? "");
    if (!t) return new Response(null, { status: 404, headers: pageHeaders(w.requestId) });
    return new Response(t.bytes as Uint8Array<ArrayBuffer>, {
      headers: pictureHeaders(w, { "Content-Type": t.type }),
    });
  });

/**
 * A video's bytes for the page's <video preload="metadata">, streamed from storage (never whole in memory) and in
 * ranges (`Range: bytes=a-b`, answered 206), as a browser asks for the index and the first frame.
 */
const video = (w: Web) =>
  picture(w, async () => {
    const { reviewLinkMedia } = await import("../../domain/review-links/media.ts");
    const { row } = await reviewLinkMedia(w.app, w.params.token ?? "", w.params.id ?? "");
    if (row.kind !== "video") return new Response(null, { status: 404, headers: pageHeaders(w.requestId) });
    const size = Number(row.size);
    const { openStream } = await import("../../domain/media/storage.ts");
    const range = /^bytes=(\d*)-(\d*)$/.exec(w.request.headers.get("range") ?? "");
    let start = 0;
    let end = size - 1;
    if (range && (range[1] || range[2])) {
      if (range[1]) {
        start = Number(range[1]);
        if (range[2]) end = Math.min(end, Number(range[2]));
      } else start = Math.max(0, size - Number(range[2]));
      if (start > end || start >= size)
        return new Response(null, {
          status: 416,
          headers: pictureHeaders(w, { "Content-Range": `bytes */${size}` }),
        });
    }
    const length = end - start + 1;
    const body = (await openStream(w.app, w.app.db, row, start)).pipeThrough(limitTo(length));
    return new Response(body, {
      status: range ? 206 : 200,
      headers: pictureHeaders(w, {
        "Content-Type": row.type,
        "Content-Length": String(length),
        "Accept-Ranges": "bytes",
        ...(range ? { "Content-Range": `bytes ${start}-${end}/${size}` } : {}),
      }),
    });
  });

/** Passes the first `n` bytes of a stream and ends it there. */
function limitTo(n: number): TransformStream<Uint8Array, Uint8Array> {
  let left = n;
  return new TransformStream({
    transform(chunk, c) {
      if (left <= 0) return;
      const part = chunk.byteLength > left ? chunk.subarray(0, left) : chunk;
      left -= part.byteLength;
      c.enqueue(part);
      if (left <= 0) c.terminate();
    },
  });
}

/** A frame that knows nothing of whoever may be signed in in this browser: the page is the link's, not theirs. */
const linkFrame = (title: string): Frame => ({
  title,
  csrf: "",
  signedIn: null,
  org: null,
  orgs: [],
  livemode: false,
  flash: null,
  path: "/review",
  mail: false,
  scopes: [],
  unread: null,
});

async function show(
  w: Web,
  opts: { status?: number; problems?: Record<string, Shown[]>; notes?: Record<string, string> } = {},
) {
  const token = w.params.token ?? "";
  try {
    const d = await reviewLinkPage(w.app, token);
    const approved = w.url.searchParams.get("approved");
    const rejected = w.url.searchParams.get("rejected");
    const done = approved
      ? { post: approved, decision: "approved" as const }
      : rejected
        ? { post: rejected, decision: "rejected" as const }
        : null;
    return render(
      w,
      <ReviewLinkPage
        f={linkFrame(`Review posts for ${d.brand.name}`)}
        token={token}
        form={d.form}
        link={d.link}
        org={d.org}
        brand={d.brand}
        livemode={d.livemode}
        more={d.more}
        channels={d.channels}
        posts={d.posts}
        done={opts.status ? null : done}
        problems={opts.problems}
        notes={opts.notes ?? {}}
      />,
      opts.status ?? 200,
      PRIVATE,
    );
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return invalid(w, e);
  }
}

function invalid(w: Web, e: ServiceError) {
  return render(
    w,
    <ReviewLinkInvalidPage f={linkFrame("Review link")} message={e.message} />,
    e.status,
    PRIVATE,
  );
}

const decide = (decision: Decision) => async (w: Web) => {
  const token = w.params.token ?? "";
  const post = w.params.id ?? "";
  // Only the same-site half of the dashboard's check: the form token below stands for the session's.
  const cross = checkCsrf(w);
  if (cross && cross.code === "cross_site_request") return invalid(w, cross);
  const note = (w.form.get("note") ?? "").trim();
  try {
    await decideByLink(w.app, token, {
      post,
      decision,
      note: note === "" ? undefined : note,
      form: w.form.get("_form"),
    });
    const key = decision === "approve" ? "approved" : "rejected";
    return redirect(w, `/review/${token}?${key}=${encodeURIComponent(post)}`);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    // The link itself no longer works (or the org closed, or the form is stale): the page says so, not a card.
    if (
      e.code === "review_link_invalid" ||
      e.code === "org_suspended" ||
      e.code === "csrf_invalid" ||
      e.code === "resource_missing"
    )
      return invalid(w, e);
    const problems = (e.errors ?? [{ code: e.code, message: e.message }]).map((p) => ({
      code: p.code,
      message: p.message,
    }));
    return show(w, { status: e.status, problems: { [post]: problems }, notes: { [post]: note } });
  }
};

export const reviewRoutes: WebRoute[] = [
  { method: "GET", path: "/review/:token", access: "link", handler: (w) => show(w) },
  { method: "POST", path: "/review/:token/posts/:id/approve", access: "link", handler: decide("approve") },
  { method: "POST", path: "/review/:token/posts/:id/reject", access: "link", handler: decide("reject") },
  { method: "GET", path: "/review/:token/media/:id/thumb", access: "link", handler: thumb },
  { method: "GET", path: "/review/:token/media/:id/video", access: "link", handler: video },
];
