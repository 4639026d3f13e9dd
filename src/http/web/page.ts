// The dashboard's request context and responses: the session cookie, the CSRF check every form and htmx request
// passes, the Content-Security-Policy, flash messages and rendering a view with its frame.
import type { JSX } from "hono/jsx/jsx-runtime";
import { type FieldErrors, FLASH, type Frame } from "../../../views/frame.ts";
import type { App } from "../../app/context.ts";
import { type SessionMember, sessionFrame } from "../../domain/identity/sessions/member.ts";
import {
  type ClientMeta,
  csrfTokenOf,
  csrfValid,
  loadSession,
  type Session,
} from "../../domain/identity/sessions/service.ts";
import { type Role, scopesOfRole } from "../../domain/scopes.ts";
import { ServiceError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { readBoundedBytes } from "../body.ts";
import { clientIp } from "../client-ip.ts";
import { SECURITY_HEADERS } from "../respond.ts";

/** No inline script or style anywhere: scripts and styles are files from svc itself. */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/**
 * No dashboard form or JSON step comes near this: every body on every dashboard route is read through a reader
 * that stops here (../body.ts), so a huge or endless body costs at most this much memory before it is refused.
 */
export const MAX_FORM_BYTES = 64 * 1024;
const tooLarge = () => new ServiceError(413, "body_too_large", "That form is too large to send.");
const unreadable = () =>
  new ServiceError(400, "body_unreadable", "The form could not be read; reload the page and try again.");

export interface Web {
  app: App;
  request: Request;
  url: URL;
  requestId: string;
  params: Record<string, string>;
  meta: ClientMeta;
  session: Session | null;
  member: SessionMember | null;
  /** The form fields of a POST (urlencoded or multipart); empty for other requests. */
  form: URLSearchParams;
  /** Set-Cookie lines added to whatever response the handler returns. */
  cookies: string[];
  flashKey: string | null;
  /** The bell's count (whole pages, not htmx fragments); null otherwise. */
  unread: number | null;
  /** Channels needing reconnecting in this org and mode (the frame's banner; whole pages only); null otherwise. */
  reauth: number | null;
}

export const cookieName = (app: App) => (app.config.insecureCookies ? "svc_session" : "__Host-svc_session");

function cookieLine(app: App, name: string, value: string, maxAgeS: number): string {
  const secure = app.config.insecureCookies ? "" : "; Secure";
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure}`;
}

export function setSessionCookie(w: Web, session: Session) {
  const maxAge = Math.max(0, Math.floor((session.expires_at - w.app.clock.now()) / 1000));
  w.cookies.push(cookieLine(w.app, cookieName(w.app), session.secret, maxAge));
  w.session = session;
}

export function clearSessionCookie(w: Web) {
  w.cookies.push(cookieLine(w.app, cookieName(w.app), "", 0));
}

export function setFlash(w: Web, key: keyof typeof FLASH) {
  w.cookies.push(cookieLine(w.app, "svc_flash", key, 60));
}

function readCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) out.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return out;
}

export async function webContext(
  app: App,
  request: Request,
  params: Record<string, string>,
  peer: string | null,
  /**
   * The handler reads a multipart body itself, as it arrives (an upload of up to 16 MiB, streamed): it is left
   * unread here, and the CSRF token comes from the X-CSRF-Token header or the `_csrf` query parameter of the
   * form's action, since a multipart upload form carries only the parts the upload takes.
   */
  rawBody = false,
): Promise<Web> {
  const url = new URL(request.url);
  let form = new URLSearchParams();
  // Only a multipart upload is left to the handler; any other body on such a route is read like every form.
  const upload =
    rawBody && (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/");
  if (upload) {
    const token = url.searchParams.get("_csrf");
    if (token) form.set("_csrf", token);
  }
  // The body first: an oversized one is refused before anything else is done for it.
  else if (request.body && request.method !== "GET" && request.method !== "HEAD") {
    const bytes = await readBoundedBytes(request, MAX_FORM_BYTES, tooLarge);
    // Handlers that read the body themselves (the passkey JSON steps) get this bounded copy, never the socket.
    request = new Request(request.url, { method: request.method, headers: request.headers, body: bytes });
    if (request.method === "POST") form = await formOf(request.headers.get("content-type") ?? "", bytes);
  }
  const cookies = readCookies(request.headers.get("cookie"));
  const meta = { ip: clientIp(app.config, request, peer), userAgent: request.headers.get("user-agent") };
  const session = await loadSession(app, cookies.get(cookieName(app)), meta);
  const requestId = newId("req");
  const flash = cookies.get("svc_flash") ?? null;
  const w: Web = {
    app,
    request,
    url,
    requestId,
    params,
    meta,
    session,
    member: null,
    form,
    cookies: [],
    flashKey: flash && flash in FLASH ? flash : null,
    unread: null,
    reauth: null,
  };
  if (flash) w.cookies.push(cookieLine(app, "svc_flash", "", 0));
  if (session?.stage === "active" && session.user_id) {
    // A whole page has the bell and the reconnect banner (an htmx fragment has neither): their counts come in the
    // same statement as the person and their orgs.
    const bell = request.headers.get("hx-request") !== "true";
    const f = await sessionFrame(app, session, requestId, bell);
    w.member = f.member;
    if (f.member && bell) {
      w.unread = f.unread;
      w.reauth = f.reauth;
    }
  }

  return w;
}

/** The string fields of an urlencoded or multipart form; a malformed (say, truncated) multipart body is a 400. */
async function formOf(type: string, bytes: Uint8Array): Promise<URLSearchParams> {
  const form = new URLSearchParams();
  if (type.startsWith("application/x-www-form-urlencoded"))
    return new URLSearchParams(new TextDecoder().decode(bytes));
  if (type.startsWith("multipart/form-data")) {
    let parsed: Awaited<ReturnType<Response["formData"]>>;
    try {
      parsed = await new Response(bytes, { headers: { "content-type": type } }).formData();
    } catch {
      throw unreadable();
    }
    for (const [k, v] of parsed.entries()) if (typeof v === "string") form.append(k, v);
  }
  return form;
}

/** The origins a form may come from: the configured base URL's and the one the request was addressed to. */
function sameOrigin(w: Web, origin: string): boolean {
  const allowed = new Set([new URL(w.app.config.baseUrl).origin, w.url.origin]);
  return allowed.has(origin);
}

/**
 * Every state-changing request: the browser must say it came from this site (Sec-Fetch-Site / Origin) and carry
 * the token bound to this session (a form field or, for htmx, the X-CSRF-Token header).
 */
export function checkCsrf(w: Web): ServiceError | null {
  const site = w.request.headers.get("sec-fetch-site");
  const origin = w.request.headers.get("origin");
  if ((site && site !== "same-origin" && site !== "none") || (origin && !sameOrigin(w, origin)))
    return new ServiceError(
      403,
      "cross_site_request",
      "This form was sent from another site; nothing changed.",
    );
  if (!site && !origin)
    return new ServiceError(403, "cross_site_request", "The browser did not say where this form came from.");
  const token = w.form.get("_csrf") ?? w.request.headers.get("x-csrf-token");
  if (!w.session || !csrfValid(w.session, token))
    return new ServiceError(
      403,
      "csrf_invalid",
      "This form is out of date or from another session; reload the page and try again. Nothing changed.",
    );
  return null;
}

/** The frame data every view gets. */
export function frame(w: Web, title: string, section?: string): Frame {
  const m = w.member;
  const choice = (o: NonNullable<SessionMember>["org"]) => ({
    id: o.id,
    name: o.name,
    role: o.role,
    status: o.status,
    status_note: o.status_note,
  });
  return {
    title,
    ...(section ? { section } : {}),
    csrf: w.session ? csrfTokenOf(w.session) : "",
    signedIn: w.session?.user_id && m ? { email: m.email, name: m.name } : null,
    org: m ? choice(m.org) : null,
    orgs: m ? m.orgs.map(choice) : [],
    livemode: w.session?.livemode === 1,
    flash: w.flashKey ? FLASH[w.flashKey]! : null,
    path: w.url.pathname,
    mail: w.app.config.smtp !== null,
    scopes: m ? [...scopesOfRole(m.org.role as Role)] : [],
    billing: m?.org.role === "owner" && !!w.app.config.billingUrl && !!w.app.config.billingLinkKey,
    unread: m ? w.unread : null,
    reauth: m ? w.reauth : null,
  };
}

/** The headers every dashboard answer carries, with or without a session (a refused body has none yet). */
export function pageHeaders(requestId: string, extra: Record<string, string> = {}): Headers {
  return new Headers({
    "Cache-Control": "no-store",
    "Content-Security-Policy": CSP,
    "Request-Id": requestId,
    ...SECURITY_HEADERS,
    ...extra,
  });
}

function headers(w: Web, extra: Record<string, string> = {}): Headers {
  const h = pageHeaders(w.requestId, extra);
  for (const c of w.cookies) h.append("Set-Cookie", c);
  return h;
}

export async function render(
  w: Web,
  view: JSX.Element,
  status = 200,
  extra: Record<string, string> = {},
): Promise<Response> {
  const body = `<!doctype html>${await view.toString()}`;
  return new Response(body, {
    status,
    headers: headers(w, { "Content-Type": "text/html; charset=utf-8", ...extra }),
  });
}

/** An htmx answer that replaces its target with nothing (a removed row). */
export const emptyFragment = (w: Web) =>
  new Response("", { status: 200, headers: headers(w, { "Content-Type": "text/html; charset=utf-8" }) });

/** 303 after a form (Post/Redirect/Get); htmx follows HX-Redirect instead. */
export function redirect(w: Web, to: string): Response {
  if (w.request.headers.get("hx-request") === "true")
    return new Response(null, { status: 200, headers: headers(w, { "HX-Redirect": to }) });
  return new Response(null, { status: 303, headers: headers(w, { Location: to }) });
}

export function json(w: Web, status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: headers(w, { "Content-Type": "application/json" }),
  });
}

/** A ServiceError's problems by field, for showing each beside its field. */
export function fieldErrors(e: ServiceError): FieldErrors {
  const out: FieldErrors = {};
  for (const p of e.errors ?? [{ code: e.code, param: e.param, message: e.message }]) {
    const key = p.param ?? "";
    out[key] = out[key] ? `${out[key]} ${p.message}` : p.message;
  }
  return out;
}

/** A path for "back": only a local path, never another site. */
export const localPath = (p: string | null, dflt = "/home") =>
  p && /^\/(?!\/)[A-Za-z0-9/_\-.?=&%]*$/.test(p) ? p : dflt;

/** A part of a page for htmx to swap in: the view's HTML alone, without the frame or a doctype. */
export async function fragment(w: Web, view: JSX.Element, status = 200): Promise<Response> {
  return new Response(await view.toString(), {
    status,
    headers: headers(w, { "Content-Type": "text/html; charset=utf-8" }),
  });
}
