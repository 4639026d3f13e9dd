// An error outside any route (an unknown path, a method the path does not take) answered to a browser: a page of
// the dashboard saying what happened, with a way back, instead of problem JSON a person cannot use. API clients,
// which do not ask for HTML, keep the problem details.
import { ErrorPage } from "../../../views/error.tsx";
import type { Frame } from "../../../views/frame.ts";
import type { App } from "../../app/context.ts";
import type { ServiceError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { SECURITY_HEADERS } from "../respond.ts";
import { CSP, frame, render, webContext } from "./page.ts";

const TITLES: Record<number, string> = {
  404: "Page not found",
  405: "Not possible here",
  500: "Something went wrong",
  503: "Try again in a moment",
};

export async function browserError(
  app: App,
  request: Request,
  err: ServiceError,
  extra: Record<string, string> = {},
): Promise<Response> {
  const title = TITLES[err.status] ?? "Something stopped this";
  const headers = { ...extra, ...err.headers };
  try {
    // With the visitor's session, so a signed-in person keeps the navigation and the mode bar.
    const w = await webContext(app, request, {}, null);
    return await render(w, <ErrorPage f={frame(w, title)} error={err} />, err.status, headers);
  } catch (e) {
    // The session could not be read (the database is down): the same page, signed out.
    app.log.warn("error page without a session", { error: String(e) });
    const f: Frame = {
      title,
      csrf: "",
      signedIn: null,
      org: null,
      orgs: [],
      livemode: false,
      flash: null,
      path: new URL(request.url).pathname,
      mail: app.config.smtp !== null,
      scopes: [],
    };
    const body = `<!doctype html>${await (<ErrorPage f={f} error={err} />).toString()}`;
    return new Response(body, {
      status: err.status,
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Security-Policy": CSP,
        "Request-Id": newId("req"),
        ...SECURITY_HEADERS,
        ...headers,
      },
    });
  }
}
