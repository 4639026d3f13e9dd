// /queue: a brand's week by slot (domain/posts/week.ts) and moving a post (the same reschedulePost as
// POST /v1/posts/<id>/reschedule), a refusal shown on the post's card with its code.

import type { Problems } from "../../../views/publishing.tsx";
import { QueuePage } from "../../../views/queue.tsx";
import { getBrand, listBrands } from "../../domain/brands/service.ts";
import { listChannels } from "../../domain/channels/service.ts";
import { getPost, listPosts } from "../../domain/posts/read.ts";
import { reschedulePost } from "../../domain/posts/reschedule.ts";
import { getWeek } from "../../domain/posts/week.ts";
import { problem, ServiceError } from "../../lib/errors.ts";
import { localToIso } from "./local-time.ts";
import { frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function page(w: Web, brandRef: string, week: string, problems?: Problems, status = 200) {
  const { app } = w;
  const actor = w.member!.actor;
  const f = frame(w, "Queue", "queue");
  if (w.member!.org.status === "suspended")
    return render(w, <QueuePage f={f} brands={[]} week={null} channels={[]} waiting={0} now="" />);
  const brands = (await listBrands(app, actor, { limit: "100" })).data.sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const brand = brandRef || brands[0]?.id;
  if (!brand) return render(w, <QueuePage f={f} brands={[]} week={null} channels={[]} waiting={0} now="" />);
  const [data, channels, waiting] = await Promise.all([
    getWeek(app, actor, brand, week || undefined),
    listChannels(app, actor, { brand, limit: "100" }),
    listPosts(app, actor, { brand, status: "pending_approval", limit: "100" }),
  ]);
  return render(
    w,
    <QueuePage
      f={f}
      brands={brands}
      week={data}
      channels={channels.data}
      waiting={waiting.data.filter((p) => p.publish_at === null).length}
      problems={problems}
      now={new Date(app.clock.now()).toISOString()}
    />,
    status,
  );
}

const show = (w: Web) => page(w, w.url.searchParams.get("brand") ?? "", w.url.searchParams.get("week") ?? "");

async function move(w: Web) {
  const id = w.params.id ?? "";
  const brand = w.form.get("brand") ?? "";
  const week = w.form.get("week") ?? "";
  const slot = w.form.get("slot") ?? "";
  const at = w.form.get("at") ?? "";
  const swapWith = w.form.get("swap_with") ?? "";
  const actor = w.member!.actor;
  try {
    if (swapWith) {
      await reschedulePost(w.app, actor, id, { swap_with: swapWith });
      setFlash(w, "posts_swapped");
      return redirect(w, `/queue?${new URLSearchParams({ brand, week })}`);
    }
    let publishAt = slot;
    if (!publishAt) {
      const post = await getPost(w.app, actor, id);
      const tz = (await getBrand(w.app, actor, post.brand)).timezone;
      const typed = at ? localToIso(at, tz) : null;
      if (!typed)
        throw new ServiceError(422, "publish_at_invalid", "Pick a free slot or a date and time.", {
          errors: [problem("publish_at_invalid", "Pick a free slot or a date and time.", "publish_at")],
        });
      publishAt = typed;
    }
    await reschedulePost(w.app, actor, id, { publish_at: publishAt });
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status === 404 || e.status >= 500) throw e;
    const list = e.errors ?? [{ code: e.code, message: e.message }];
    return page(w, brand, week, { [id]: list.map((p) => ({ code: p.code, message: p.message })) }, e.status);
  }
  setFlash(w, "post_moved");
  return redirect(w, `/queue?${new URLSearchParams({ brand, week })}`);
}

export const queueRoutes: WebRoute[] = [
  { method: "GET", path: "/queue", access: "member", org: "read", handler: show },
  { method: "POST", path: "/queue/:id/move", access: "member", org: "write", handler: move },
];
