// /queue: a brand's week by slot (domain/posts/week.ts) or, with ?view=month, its month (domain/posts/month.ts),
// and moving a post (the same reschedulePost as POST /v1/posts/<id>/reschedule), a refusal shown on the post's
// card (the week) or above the month with its code.

import { MonthPage } from "../../../views/month.tsx";
import type { Problems } from "../../../views/publishing.tsx";
import { QueuePage } from "../../../views/queue.tsx";
import { brandChoices, getBrand } from "../../domain/brands/service.ts";
import { listChannels } from "../../domain/channels/service.ts";
import { getMonth } from "../../domain/posts/month.ts";
import { getPost } from "../../domain/posts/read.ts";
import { reschedulePost } from "../../domain/posts/reschedule.ts";
import { countWaitingForSlot } from "../../domain/posts/waiting-for-slot.ts";
import { getWeek } from "../../domain/posts/week.ts";
import { problem, ServiceError } from "../../lib/errors.ts";
import { localParts } from "../../lib/zoned.ts";
import { localToIso } from "./local-time.ts";
import { frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function monthPage(w: Web, brandRef: string, month: string, problems?: Problems, status = 200) {
  const { app } = w;
  const actor = w.member!.actor;
  const f = frame(w, "Calendar", "queue");
  const brands =
    w.member!.org.status === "suspended"
      ? []
      : (await brandChoices(app, actor)).sort((a, b) => a.name.localeCompare(b.name));
  const brand = brandRef || brands[0]?.id;
  if (!brand) return render(w, <QueuePage f={f} brands={[]} week={null} channels={[]} waiting={0} now="" />);
  const data = await getMonth(app, actor, brand, month || undefined);
  const t = localParts(app.clock.now(), data.brand.timezone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return render(
    w,
    <MonthPage
      f={f}
      brands={brands}
      month={data}
      today={`${t.year}-${pad(t.month)}-${pad(t.day)}`}
      problems={problems}
    />,
    status,
  );
}

async function page(
  w: Web,
  brandRef: string,
  week: string,
  problems?: Problems,
  status = 200,
  moving?: string,
) {
  const { app } = w;
  const actor = w.member!.actor;
  const f = frame(w, "Queue", "queue");
  if (w.member!.org.status === "suspended")
    return render(w, <QueuePage f={f} brands={[]} week={null} channels={[]} waiting={0} now="" />);
  const brands = (await brandChoices(app, actor)).sort((a, b) => a.name.localeCompare(b.name));
  const brand = brandRef || brands[0]?.id;
  if (!brand) return render(w, <QueuePage f={f} brands={[]} week={null} channels={[]} waiting={0} now="" />);
  const [data, channels, waiting] = await Promise.all([
    getWeek(app, actor, brand, week || undefined),
    listChannels(app, actor, { brand, limit: "100" }),
    countWaitingForSlot(app, actor, brand),
  ]);
  return render(
    w,
    <QueuePage
      f={f}
      brands={brands}
      week={data}
      channels={channels.data}
      waiting={waiting}
      problems={problems}
      moving={moving}
      now={new Date(app.clock.now()).toISOString()}
    />,
    status,
  );
}

const show = (w: Web) => {
  const q = w.url.searchParams;
  return q.get("view") === "month"
    ? monthPage(w, q.get("brand") ?? "", q.get("month") ?? "")
    : page(w, q.get("brand") ?? "", q.get("week") ?? "", undefined, 200, q.get("move") ?? undefined);
};

async function move(w: Web) {
  const id = w.params.id ?? "";
  const brand = w.form.get("brand") ?? "";
  const week = w.form.get("week") ?? "";
  // A move from the month (drag and drop) goes back to that month.
  const month = w.form.get("month") ?? "";
  const back = () =>
    month
      ? `/queue?${new URLSearchParams({ view: "month", brand, month })}`
      : `/queue?${new URLSearchParams({ brand, week })}`;
  const slot = w.form.get("slot") ?? "";
  const at = w.form.get("at") ?? "";
  const swapWith = w.form.get("swap_with") ?? "";
  const actor = w.member!.actor;
  try {
    if (swapWith) {
      await reschedulePost(w.app, actor, id, { swap_with: swapWith });
      setFlash(w, "posts_swapped");
      return redirect(w, back());
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
    const problems = { [id]: list.map((p) => ({ code: p.code, message: p.message })) };
    return month
      ? monthPage(w, brand, month, problems, e.status)
      : page(w, brand, week, problems, e.status, id);
  }
  setFlash(w, "post_moved");
  return redirect(w, back());
}

export const queueRoutes: WebRoute[] = [
  { method: "GET", path: "/queue", access: "member", org: "read", handler: show },
  { method: "POST", path: "/queue/:id/move", access: "member", org: "write", handler: move },
];
