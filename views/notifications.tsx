// Notifications: the person's list in this org (unread first in weight, mark read, mark all read), their email
// preferences per type, and the signed-out page an email's unsubscribe link opens.
import type { Frame } from "./frame.ts";
import { Bell, Layout } from "./layout.tsx";
import { Csrf, FormError, when } from "./parts.tsx";

export interface NotificationItem {
  id: string;
  type: string;
  subject: string;
  body: string;
  link: string;
  read_at: string | null;
  created_at: string;
}

export function NotificationRow(props: { n: NotificationItem; csrf: string }) {
  const n = props.n;
  const action = `/notifications/${n.id}/read`;
  return (
    <li class={n.read_at ? "note" : "note unread"} id={`note-${n.id}`}>
      <div class="note-main">
        <p class="note-subject">
          {n.read_at ? null : <span class="dot" aria-hidden="true" />}
          <a href={n.link}>{n.subject}</a>
          {n.read_at ? null : <span class="visually-hidden"> (unread)</span>}
        </p>
        <p class="note-body">{n.body}</p>
        <p class="note-when muted">{when(n.created_at)}</p>
      </div>
      {n.read_at ? null : (
        <form method="post" action={action} hx-post={action} hx-target={`#note-${n.id}`} hx-swap="outerHTML">
          <Csrf token={props.csrf} />
          <button type="submit" class="quiet" aria-label={`Mark read: ${n.subject}`}>
            Mark read
          </button>
        </form>
      )}
    </li>
  );
}

/** htmx answer to "mark read": the row, read, and the bell with its new count. */
export function ReadFragment(props: { n: NotificationItem; csrf: string; unread: number }) {
  return (
    <>
      <NotificationRow n={props.n} csrf={props.csrf} />
      <Bell unread={props.unread} oob={true} />
    </>
  );
}

export function NotificationsPage(props: {
  f: Frame;
  items: NotificationItem[];
  unreadOnly: boolean;
  hasMore: boolean;
  next: string | null;
}) {
  const unread = props.f.unread ?? 0;
  return (
    <Layout f={props.f}>
      <div class="toolbar">
        <nav aria-label="Filter" class="tabs">
          <a href="/notifications" aria-current={props.unreadOnly ? undefined : "page"}>
            All
          </a>
          <a href="/notifications?unread=true" aria-current={props.unreadOnly ? "page" : undefined}>
            Unread{unread ? ` (${unread})` : ""}
          </a>
        </nav>
        <div class="toolbar-actions">
          {unread > 0 ? (
            <form method="post" action="/notifications/read-all" class="inline">
              <Csrf token={props.f.csrf} />
              <button type="submit" id="read-all">
                Mark all read
              </button>
            </form>
          ) : null}
          <a href="/notifications/preferences" class="button" id="preferences-link">
            Email preferences
          </a>
        </div>
      </div>
      {props.items.length === 0 ? (
        <div class="empty" id="no-notifications">
          <p>
            <strong>{props.unreadOnly ? "You are all caught up." : "No notifications yet."}</strong>
          </p>
          <p class="muted">
            Posts waiting for your approval, posts that need attention, channels to connect again and new
            members show up here.
          </p>
        </div>
      ) : (
        <ul class="notes" id="notifications">
          {props.items.map((n) => (
            <NotificationRow n={n} csrf={props.f.csrf} />
          ))}
        </ul>
      )}
      {props.hasMore && props.next ? (
        <p>
          <a href={props.next} id="older">
            Older notifications
          </a>
        </p>
      ) : null}
    </Layout>
  );
}

export interface PreferenceRow {
  type: string;
  label: string;
  email: boolean;
  delivery: "immediate" | "daily";
}

export function PreferencesPage(props: {
  f: Frame;
  timezone: string;
  zones: string[];
  types: PreferenceRow[];
  errors?: Record<string, string> | undefined;
}) {
  const err = props.errors ?? {};
  return (
    <Layout f={props.f}>
      <p>
        What {props.f.org?.name ?? "this org"} emails you about. Everything always shows in the bell; account
        notices (password, passkeys, two-factor, CLI sign-ins) are always emailed at once.
      </p>
      {props.f.mail ? null : (
        <div class="alert warn" role="status">
          This server sends no email (SMTP is not configured): these choices apply once it does.
        </div>
      )}
      <FormError errors={props.errors} shown={["timezone"]} />
      <form method="post" action="/notifications/preferences" id="preferences">
        <Csrf token={props.f.csrf} />
        <ul class="prefs">
          {props.types.map((t) => (
            <li class="pref">
              <div class="pref-label">
                <input
                  type="checkbox"
                  id={`email-${t.type}`}
                  name={`email.${t.type}`}
                  value="on"
                  checked={t.email}
                />
                <label for={`email-${t.type}`}>{t.label}</label>
              </div>
              <div class="pref-delivery">
                <label for={`delivery-${t.type}`} class="visually-hidden">
                  When to email: {t.label}
                </label>
                <select id={`delivery-${t.type}`} name={`delivery.${t.type}`}>
                  <option value="immediate" selected={t.delivery === "immediate"}>
                    Right away
                  </option>
                  <option value="daily" selected={t.delivery === "daily"}>
                    Daily summary at 08:00
                  </option>
                </select>
              </div>
            </li>
          ))}
        </ul>
        <div class={err.timezone ? "field has-error" : "field"}>
          <label for="f-timezone">Your time zone</label>
          <p class="hint" id="f-timezone-hint">
            The daily summary arrives at 08:00 here.
          </p>
          <input
            id="f-timezone"
            type="text"
            name="timezone"
            list="zones"
            value={props.timezone}
            autocomplete="off"
            aria-describedby={err.timezone ? "f-timezone-hint f-timezone-error" : "f-timezone-hint"}
            aria-invalid={err.timezone ? "true" : undefined}
          />
          <datalist id="zones">
            {props.zones.map((z) => (
              <option value={z} />
            ))}
          </datalist>
          {err.timezone ? (
            <p class="error" id="f-timezone-error">
              {err.timezone}
            </p>
          ) : null}
        </div>
        <button type="submit" class="primary" id="save-preferences">
          Save preferences
        </button>
      </form>
    </Layout>
  );
}

export function UnsubscribePage(props: {
  f: Frame;
  state: "ask" | "done" | "invalid";
  email?: string;
  orgName?: string;
  labels?: string[];
  message?: string;
}) {
  return (
    <Layout f={props.f}>
      <div class="card narrow unsubscribe" id="unsubscribe">
        {props.state === "ask" ? (
          <>
            <p>
              Stop emailing <strong>{props.email}</strong> about these in <strong>{props.orgName}</strong>?
            </p>
            <ul>
              {(props.labels ?? []).map((l) => (
                <li>{l}</li>
              ))}
            </ul>
            <p class="muted">
              They still show in the dashboard's bell. You can turn them on again in your preferences.
            </p>
            <form method="post">
              <Csrf token={props.f.csrf} />
              <button type="submit" class="primary" id="confirm-unsubscribe">
                Turn these emails off
              </button>
            </form>
          </>
        ) : props.state === "done" ? (
          <p id="unsubscribed">
            Done: <strong>{props.orgName}</strong> no longer emails you about{" "}
            {(props.labels ?? []).join(", ")}.
          </p>
        ) : (
          <p id="unsubscribe-invalid">{props.message}</p>
        )}
      </div>
    </Layout>
  );
}
