// The dashboard's route table: one handler file per page, mounted beside /v1 in server.ts. Each route says who
// may reach it; the wrapper loads the session, refuses a POST without a valid CSRF token from this site, sends
// the signed-out to sign-in, and turns a ServiceError into an error page.

import { ErrorPage } from "../../../views/error.tsx";
import type { App } from "../../app/context.ts";
import { databaseDown, databaseUnavailable } from "../../domain/availability.ts";
import { orgStatusError } from "../../domain/identity/auth/authenticate.ts";
import { startAnonymousSession } from "../../domain/identity/sessions/service.ts";
import { sessionOpensOrg, ssoSessionError } from "../../domain/identity/sso/policy.ts";
import { orgWriteRefusal } from "../../domain/orgs/status.ts";
import { type Role, scopesOfRole } from "../../domain/scopes.ts";
import { ServiceError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { apiKeyRoutes } from "./api-keys.tsx";
import { approvalRoutes } from "./approvals.tsx";
import { brandRoutes } from "./brands.tsx";
import { channelRoutes } from "./channels.tsx";
import { cliKeyRoutes } from "./cli-key.tsx";
import { composerRoutes } from "./composer.tsx";
import { connectRoutes } from "./connect.tsx";
import { deviceRoutes } from "./device.tsx";
import { deviceListRoutes } from "./devices.tsx";
import { homeRoutes } from "./home.tsx";
import { insightRoutes } from "./insights.tsx";
import { inviteRoutes } from "./invite.tsx";
import { logRoutes } from "./logs.tsx";
import { mailAccountPageRoutes } from "./mail-accounts.tsx";
import { mediaRoutes } from "./media.tsx";
import { memberPageRoutes } from "./members.tsx";
import { newsletterPageRoutes } from "./newsletters.tsx";
import { notificationPageRoutes } from "./notifications.tsx";
import { orgPageRoutes } from "./org.tsx";
import {
  checkCsrf,
  frame,
  pageHeaders,
  redirect,
  render,
  setFlash,
  setSessionCookie,
  type Web,
  webContext,
} from "./page.ts";
import { passwordRoutes } from "./password.tsx";
import { postRoutes } from "./posts.tsx";
import { queueRoutes } from "./queue.tsx";
import { reportPageRoutes } from "./reports.tsx";
import { resetRoutes } from "./reset.tsx";
import { reviewRoutes } from "./review.tsx";
import { reviewLinkPageRoutes } from "./review-links.tsx";
import type { Access, WebRoute } from "./route.ts";
import { securityRoutes } from "./security.tsx";
import { sessionRoutes } from "./sessions.tsx";
import { signInRoutes } from "./signin.tsx";
import { ssoRoutes } from "./sso.tsx";
import { switchRoutes } from "./switch.ts";
import { templateRoutes } from "./templates.tsx";
import { webhookPageRoutes } from "./webhooks.tsx";

export const webRoutes: WebRoute[] = [
  ...signInRoutes,
  ...ssoRoutes,
  ...homeRoutes,
  ...switchRoutes,
  ...sessionRoutes,
  ...deviceRoutes,
  ...cliKeyRoutes,
  ...deviceListRoutes,
  ...memberPageRoutes,
  ...inviteRoutes,
  ...resetRoutes,
  ...reviewRoutes,
  ...securityRoutes,
  ...passwordRoutes,
  ...apiKeyRoutes,
  ...orgPageRoutes,
  ...composerRoutes,
  ...postRoutes,
  ...approvalRoutes,
  ...queueRoutes,
  ...connectRoutes,
  ...notificationPageRoutes,
  ...channelRoutes,
  ...brandRoutes,
  ...reviewLinkPageRoutes,
  ...mediaRoutes,
  ...templateRoutes,
  ...webhookPageRoutes,
  ...newsletterPageRoutes,
  ...mailAccountPageRoutes,
  ...logRoutes,
  ...insightRoutes,
  ...reportPageRoutes,
];

function allowed(w: Web, access: Access): boolean {
  const stage = w.session?.stage;
  if (access === "guest" || access === "link") return true;
  if (access === "second_factor") return stage === "second_factor";
  if (access === "account") return stage === "enrol" || (stage === "active" && w.member !== null);
  return stage === "active" && w.member !== null;
}

/** Where a session belongs when it asks for a page it may not see. */
function home(w: Web): string {
  switch (w.session?.stage) {
    case "second_factor":
      return "/signin/two-factor";
    case "enrol":
      return "/account/security";
    case "active":
      return w.member ? "/home" : "/signin";
    default:
      return "/signin";
  }
}

/** The org status's answer to a route (route.ts OrgUse): null when it may run. */
export function orgRefusal(w: Web, route: WebRoute): ServiceError | null {
  const org = w.member?.org;
  const use = route.org ?? "none";
  if (!org || use === "none" || org.status === "active") return null;
  if (use === "write") return orgWriteRefusal(org.status, org.status_note);
  return orgStatusError(org.status, org.status_note);
}

async function run(w: Web, route: WebRoute): Promise<Response> {
  // A link page checks its own form token (its handler), since no session backs it.
  if (route.method === "POST" && route.access !== "link") {
    const bad = checkCsrf(w);
    if (bad) throw bad;
  }
  if (route.access === "guest" && !w.session) setSessionCookie(w, await startAnonymousSession(w.app, w.meta));
  if (!allowed(w, route.access)) {
    if (w.session?.stage === "enrol") setFlash(w, "mfa_required_first");
    else if (w.session?.stage === "active" && !w.member) setFlash(w, "no_org");
    else if (!w.session || w.session.stage === "anonymous") setFlash(w, "session_expired");
    return redirect(w, home(w));
  }
  const refusal = orgRefusal(w, route);
  if (refusal) throw refusal;
  // An org that requires single sign-on opens only to a session that came through it (or an owner's break-glass).
  if (
    route.access === "member" &&
    (route.org ?? "none") !== "none" &&
    !sessionOpensOrg(w.session!, w.member!.org)
  )
    throw ssoSessionError();
  // After the org's status, so a suspended org's members all see the same notice.
  if (route.access === "member" && route.needs && !scopesOfRole(w.member!.org.role as Role).has(route.needs))
    throw new ServiceError(403, "forbidden", `Your role (${w.member!.org.role}) cannot use this page.`);
  return route.handler(w);
}

export async function handleWeb(
  app: App,
  route: WebRoute,
  request: Request,
  params: Record<string, string>,
  peer: string | null,
): Promise<Response> {
  let w: Web;
  try {
    w = await webContext(app, request, params, peer, route.rawBody === true);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    // Refused before there is a page to frame it (a body too large or unreadable): plain text, but with every
    // header a dashboard answer carries. The connection closes: the rest of an oversized body is never read.
    return new Response(`${e.message}\n`, {
      status: e.status,
      headers: pageHeaders(newId("req"), {
        "Content-Type": "text/plain; charset=utf-8",
        ...(e.status === 413 ? { Connection: "close" } : {}),
      }),
    });
  }
  try {
    return await run(w, route);
  } catch (e) {
    // A database out of reach is 503 with Retry-After here too, as on the API: it recovers by itself.
    const down = !(e instanceof ServiceError) && databaseDown(e);
    const err =
      e instanceof ServiceError
        ? e
        : down
          ? databaseUnavailable()
          : new ServiceError(500, "internal_error", "Something went wrong on our side. Nothing was changed.");
    if (!(e instanceof ServiceError) && !down)
      app.log.error("dashboard error", { path: w.url.pathname, error: String(e) });
    return render(
      w,
      <ErrorPage f={frame(w, "Something stopped this")} error={err} />,
      err.status,
      err.headers,
    );
  }
}

/** `/`: the sign-in page when signed out, the home page when signed in. */
export async function rootRedirect(app: App, request: Request): Promise<Response> {
  const w = await webContext(app, request, {}, null);
  return redirect(w, home(w));
}
