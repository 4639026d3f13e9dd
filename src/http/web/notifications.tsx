// GET /notifications (the list), POST /notifications/:id/read and /notifications/read-all, GET and POST
// /notifications/preferences, and the signed-out unsubscribe page GET and POST /unsubscribe/:token.
import {
  NotificationsPage,
  PreferencesPage,
  ReadFragment,
  UnsubscribePage,
} from "../../../views/notifications.tsx";
import { listNotifications, unreadCount } from "../../domain/notifications/list.ts";
import { getPreferences, updatePreferences } from "../../domain/notifications/preferences.ts";
import { readAllNotifications, readNotification } from "../../domain/notifications/read.ts";
import { NOTIFICATION_TYPES } from "../../domain/notifications/types.ts";
import { describeUnsubscribe, unsubscribe } from "../../domain/notifications/unsubscribe.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, fragment, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

/** Links are stored as dashboard paths; the page shows them relative to wherever it is served. */
const local = (w: Web, link: string) => {
  const base = w.app.config.baseUrl.replace(/\/$/, "");
  return link.startsWith(base) ? link.slice(base.length) || "/" : link;
};

async function list(w: Web) {
  const unreadOnly = w.url.searchParams.get("unread") === "true";
  const after = w.url.searchParams.get("starting_after") ?? undefined;
  const page = await listNotifications(w.app, w.member!.actor, {
    limit: "50",
    ...(unreadOnly ? { unread: "true" } : {}),
    ...(after ? { starting_after: after } : {}),
  });
  const items = page.data.map((n) => ({ ...n, link: local(w, n.link) }));
  const last = items.at(-1);
  const next = last ? `/notifications?${unreadOnly ? "unread=true&" : ""}starting_after=${last.id}` : null;
  return render(
    w,
    <NotificationsPage
      f={frame(w, "Notifications", "notifications")}
      items={items}
      unreadOnly={unreadOnly}
      hasMore={page.has_more}
      next={next}
    />,
  );
}

async function readOne(w: Web) {
  const n = await readNotification(w.app, w.member!.actor, w.params.id ?? "");
  if (w.request.headers.get("hx-request") === "true") {
    const unread = await unreadCount(w.app, w.member!.actor.userId!, w.member!.org.id);
    return fragment(
      w,
      <ReadFragment n={{ ...n, link: local(w, n.link) }} csrf={frame(w, "").csrf} unread={unread} />,
    );
  }
  return redirect(w, "/notifications");
}

async function readAll(w: Web) {
  await readAllNotifications(w.app, w.member!.actor);
  setFlash(w, "notifications_read");
  return redirect(w, "/notifications");
}

async function preferencesPage(w: Web, errors?: Record<string, string>, status = 200) {
  const p = await getPreferences(w.app, w.member!.actor);
  const typed = w.form.get("timezone");
  return render(
    w,
    <PreferencesPage
      f={frame(w, "Email preferences", "notifications")}
      timezone={errors && typed !== null ? typed : p.timezone}
      zones={Intl.supportedValuesOf("timeZone")}
      types={p.types}
      errors={errors}
    />,
    status,
  );
}

async function savePreferences(w: Web) {
  const types = NOTIFICATION_TYPES.map((type) => ({
    type,
    email: w.form.get(`email.${type}`) === "on",
    delivery: w.form.get(`delivery.${type}`) === "daily" ? "daily" : "immediate",
  }));
  try {
    await updatePreferences(w.app, w.member!.actor, {
      types,
      ...(w.form.get("timezone") ? { timezone: w.form.get("timezone")!.trim() } : {}),
    });
  } catch (e) {
    if (e instanceof ServiceError && e.status === 422) return preferencesPage(w, fieldErrors(e), 422);
    throw e;
  }
  setFlash(w, "preferences_saved");
  return redirect(w, "/notifications/preferences");
}

async function unsubscribePage(w: Web) {
  const f = frame(w, "Email notifications");
  try {
    const d = await describeUnsubscribe(w.app, w.params.token ?? "");
    return render(
      w,
      <UnsubscribePage
        f={f}
        state="ask"
        email={d.email}
        orgName={d.orgName}
        labels={d.types.map((t) => t.label)}
      />,
    );
  } catch (e) {
    if (e instanceof ServiceError && e.code === "unsubscribe_link_invalid")
      return render(w, <UnsubscribePage f={f} state="invalid" message={e.message} />, 404);
    throw e;
  }
}

async function unsubscribeNow(w: Web) {
  const f = frame(w, "Email notifications");
  try {
    const d = await describeUnsubscribe(w.app, w.params.token ?? "");
    await unsubscribe(w.app, w.params.token ?? "");
    return render(
      w,
      <UnsubscribePage f={f} state="done" orgName={d.orgName} labels={d.types.map((t) => t.label)} />,
    );
  } catch (e) {
    if (e instanceof ServiceError && e.code === "unsubscribe_link_invalid")
      return render(w, <UnsubscribePage f={f} state="invalid" message={e.message} />, 404);
    throw e;
  }
}

export const notificationPageRoutes: WebRoute[] = [
  // The list shows the org's posts and channels: read (a suspended org shows only its notice). Marking read changes
  // the person's own state, never the org's, so a read-only org allows it.
  { method: "GET", path: "/notifications", access: "member", org: "read", handler: list },
  { method: "POST", path: "/notifications/read-all", access: "member", org: "read", handler: readAll },
  {
    method: "GET",
    path: "/notifications/preferences",
    access: "member",
    org: "none",
    handler: (w) => preferencesPage(w),
  },
  {
    method: "POST",
    path: "/notifications/preferences",
    access: "member",
    org: "none",
    handler: savePreferences,
  },
  { method: "POST", path: "/notifications/:id/read", access: "member", org: "read", handler: readOne },
  { method: "GET", path: "/unsubscribe/:token", access: "guest", handler: unsubscribePage },
  { method: "POST", path: "/unsubscribe/:token", access: "guest", handler: unsubscribeNow },
];
