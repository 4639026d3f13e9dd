// /approvals: what waits for approval in this mode, and approve (takes the brand's next free slot) or reject with
// a note, through the same domain calls as POST /v1/posts/<id>/approve and /reject, as the signed-in member.

import { ApprovalsPage, type Waiting } from "../../../views/approvals.tsx";
import type { Problems } from "../../../views/publishing.tsx";
import { listBrands } from "../../domain/brands/service.ts";
import { listChannels } from "../../domain/channels/service.ts";
import { approvePost } from "../../domain/posts/approve.ts";
import { listPosts } from "../../domain/posts/read.ts";
import { rejectPost } from "../../domain/posts/reject.ts";
import { requestedBy } from "../../domain/posts/review.ts";
import { nextFreeSlot } from "../../domain/slots/free.ts";
import { ServiceError } from "../../lib/errors.ts";
import { frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function page(w: Web, problems?: Problems, notes?: Record<string, string>, status = 200) {
  const { app } = w;
  const actor = w.member!.actor;
  const f = frame(w, "Approvals", "approvals");
  const mayApprove = actor.scopes.has("posts:approve");
  if (w.member!.org.status === "suspended")
    return render(w, <ApprovalsPage f={f} waiting={[]} channels={[]} mayApprove={mayApprove} />);
  const [posts, brands, channels] = await Promise.all([
    listPosts(app, actor, { status: "pending_approval", limit: "100" }),
    listBrands(app, actor, { limit: "100" }),
    listChannels(app, actor, { limit: "100" }),
  ]);
  const used = [...new Set(posts.data.map((p) => p.brand))];
  const mine = await requestedBy(
    app,
    actor,
    posts.data.map((p) => p.id),
  );
  const slots = new Map(
    await Promise.all(used.map(async (id) => [id, await nextFreeSlot(app, actor, id)] as const)),
  );
  const waiting: Waiting[] = posts.data
    .map((p) => {
      const b = brands.data.find((x) => x.id === p.brand);
      const slot = slots.get(p.brand);
      return {
        id: p.id,
        brand: {
          id: p.brand,
          name: b?.name ?? p.brand,
          slug: b?.slug ?? p.brand,
          timezone: b?.timezone ?? "UTC",
          next_slot: slot ? new Date(slot).toISOString() : null,
        },
        text: p.targets[0]?.parts.join("\n\n") ?? "",
        channels: p.targets.map((t) => t.channel),
        publish_at: p.publish_at,
        created_at: p.created_at,
        mine: mine.has(p.id),
      };
    })
    // Oldest first: approval order is slot order, so the first asked is the first to review.
    .reverse();
  return render(
    w,
    <ApprovalsPage
      f={f}
      waiting={waiting}
      channels={channels.data}
      mayApprove={mayApprove}
      problems={problems}
      notes={notes}
    />,
    status,
  );
}

async function review(w: Web, decide: typeof approvePost, flash: "post_approved" | "post_rejected") {
  const id = w.params.id ?? "";
  const note = (w.form.get("note") ?? "").trim();
  try {
    await decide(w.app, w.member!.actor, id, note ? { note } : {});
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status === 404 || e.status >= 500) throw e;
    const list = e.errors ?? [{ code: e.code, message: e.message }];
    return page(
      w,
      { [id]: list.map((p) => ({ code: p.code, message: p.message })) },
      { [id]: note },
      e.status,
    );
  }
  setFlash(w, flash);
  return redirect(w, "/approvals");
}

export const approvalRoutes: WebRoute[] = [
  { method: "GET", path: "/approvals", access: "member", org: "read", handler: (w) => page(w) },
  {
    method: "POST",
    path: "/approvals/:id/approve",
    access: "member",
    org: "write",
    handler: (w) => review(w, approvePost, "post_approved"),
  },
  {
    method: "POST",
    path: "/approvals/:id/reject",
    access: "member",
    org: "write",
    handler: (w) => review(w, rejectPost, "post_rejected"),
  },
];
