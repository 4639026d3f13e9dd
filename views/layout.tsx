// The frame of every dashboard page: the mode bar (test or live, on every page, in words and colour), the header
// with navigation, org switcher and sign-out, the org's status note, the flash message, then the page.
// Scripts and styles are files served by svc itself; the Content-Security-Policy forbids inline ones.
import type { Child } from "hono/jsx";
import type { Frame } from "./frame.ts";
import { esc, trusted } from "./html.ts";
import { navFor } from "./nav.ts";
import { Csrf } from "./parts.tsx";

function ModeBar(props: { livemode: boolean }) {
  return props.livemode ? (
    <div class="mode mode-live" id="mode-bar">
      <strong>LIVE MODE</strong> — posts go to real networks.
    </div>
  ) : (
    <div class="mode mode-test" id="mode-bar">
      <strong>TEST MODE</strong> — sandbox channels only; nothing reaches a real network.
    </div>
  );
}

function OrgStatus(props: { f: Frame }) {
  const o = props.f.org;
  if (!o || o.status === "active") return null;
  const text =
    o.status === "suspended"
      ? "This org is suspended by the operator: nothing is published and nothing can be changed."
      : o.status === "read_only"
        ? "This org is read-only: you can look, but changes are refused."
        : `This org's status is ${o.status}.`;
  return (
    <div class="alert warn" role="status" id="org-status">
      <p>
        <strong>{text}</strong>
      </p>
      {o.status_note ? <p>Operator's note: {o.status_note}</p> : null}
      {props.f.billing && o.status === "suspended" ? (
        <p>
          <a href="/org/billing" id="status-billing">
            Billing
          </a>
        </p>
      ) : null}
    </div>
  );
}

/** The bell: unread notifications in this org, on every page (the count is one indexed query per page). */
export function Bell(props: { unread: number; oob?: boolean }) {
  const n = props.unread;
  const label = n === 0 ? "Notifications, none unread" : `Notifications, ${n} unread`;
  return (
    <a
      href="/notifications"
      class={n > 0 ? "bell has-unread" : "bell"}
      id="bell"
      aria-label={label}
      title={label}
      {...(props.oob ? { "hx-swap-oob": "true" } : {})}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
        />
      </svg>
      {n > 0 ? (
        <span class="bell-count" id="bell-count">
          {n > 99 ? "99+" : String(n)}
        </span>
      ) : null}
    </a>
  );
}

/**
 * The navigation's groups as links, the current page marked. Rendered twice in the frame: as the sidebar (wide
 * screens) and inside the phone's Menu (a <details>, so it opens without JavaScript); CSS shows one or the other.
 * It depends only on the role's scopes and the page's section, so each pair's HTML is built once (a few dozen
 * links, on every page) and kept; nothing of the person or the org is in it.
 */
const navCache = new Map<string, string>();
function navHtml(scopes: readonly string[], section: string | undefined): string {
  const key = `${section ?? ""}\n${scopes.join(",")}`;
  let html = navCache.get(key);
  if (html === undefined) {
    html = navFor(scopes)
      .map(
        (g) =>
          `<div class="nav-group">${g.label ? `<p class="nav-label">${esc(g.label)}</p>` : ""}<ul>${g.items
            .map(
              (n) =>
                `<li><a href="${esc(n.href)}"${section === n.section ? ' aria-current="page"' : ""}>${esc(n.label)}</a></li>`,
            )
            .join("")}</ul></div>`,
      )
      .join("");
    navCache.set(key, html);
  }
  return html;
}

/** Channels that need reconnecting, on every page but /channels (which lists them): nothing reaches them until then. */
function ReconnectBanner(props: { f: Frame }) {
  const n = props.f.reauth ?? 0;
  if (n === 0 || props.f.section === "channels") return null;
  return (
    <div class="alert warn" role="status" id="reconnect-banner">
      <p>
        <strong>{n === 1 ? "1 channel needs" : `${n} channels need`} reconnecting.</strong> Nothing is
        published to {n === 1 ? "it" : "them"} until then.{" "}
        <a href="/channels">Reconnect on the Channels page</a>
      </p>
    </div>
  );
}

function Switchers(props: { f: Frame }) {
  const f = props.f;
  return (
    <div class="switchers">
      {typeof f.unread === "number" ? <Bell unread={f.unread} /> : null}
      {f.orgs.length > 1 ? (
        <form method="post" action="/org" class="inline">
          <Csrf token={f.csrf} />
          <input type="hidden" name="back" value={f.path} />
          <label for="org-switch">Org</label>
          <select id="org-switch" name="org">
            {f.orgs.map((o) => (
              <option value={o.id} selected={o.id === f.org?.id}>
                {o.name}
              </option>
            ))}
          </select>
          <button type="submit">Switch</button>
        </form>
      ) : f.org ? (
        <span class="org-name" id="org-name">
          {f.org.name}
        </span>
      ) : null}
      <form method="post" action="/mode" class="inline">
        <Csrf token={f.csrf} />
        <input type="hidden" name="back" value={f.path} />
        <input type="hidden" name="livemode" value={f.livemode ? "false" : "true"} />
        <button type="submit" id="mode-switch">
          {f.livemode ? "Switch to test mode" : "Switch to live mode"}
        </button>
      </form>
      <form method="post" action="/signout" class="inline">
        <Csrf token={f.csrf} />
        <button type="submit" class="link">
          Sign out <span class="muted signed-in-as">({f.signedIn?.email})</span>
        </button>
      </form>
    </div>
  );
}

function Main(props: { f: Frame; children?: Child }) {
  const f = props.f;
  return (
    <main id="main" tabindex={-1}>
      <OrgStatus f={f} />
      <ReconnectBanner f={f} />
      {f.flash ? (
        <div class={`alert ${f.flash.kind}`} role={f.flash.kind === "error" ? "alert" : "status"} id="flash">
          {f.flash.text}
        </div>
      ) : null}
      <h1>{f.title}</h1>
      {props.children}
    </main>
  );
}

export function Layout(props: { f: Frame; children?: Child; scripts?: string[] }) {
  const f = props.f;
  const title = f.org ? `${f.title} · ${f.org.name} · svc` : `${f.title} · svc`;
  return (
    <html lang="en" class={f.signedIn ? (f.livemode ? "live" : "test") : undefined}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="robots" content="noindex" />
        <meta
          name="htmx-config"
          content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"selfRequestsOnly":true}'
        />
        <title>{title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/static/app.css" />
        <script src="/static/htmx.min.js" defer />
        <script src="/static/app.js" defer />
        {(props.scripts ?? []).map((s) => (
          <script src={s} defer />
        ))}
      </head>
      <body hx-headers={JSON.stringify({ "X-CSRF-Token": f.csrf })}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        {f.signedIn ? <ModeBar livemode={f.livemode} /> : null}
        {f.signedIn ? (
          <div class="shell">
            <header class="side">
              <a class="logo" href="/home">
                svc
              </a>
              <nav aria-label="Main" class="side-nav">
                {trusted(navHtml(f.scopes, f.section))}
              </nav>
              <details class="nav-menu">
                <summary>Menu</summary>
                <nav aria-label="Main">{trusted(navHtml(f.scopes, f.section))}</nav>
              </details>
            </header>
            <div class="page">
              <div class="top">
                <Switchers f={f} />
              </div>
              <Main f={f}>{props.children}</Main>
            </div>
          </div>
        ) : (
          <>
            <header class="top">
              <a class="logo" href="/">
                svc
              </a>
            </header>
            <Main f={f}>{props.children}</Main>
          </>
        )}
      </body>
    </html>
  );
}
