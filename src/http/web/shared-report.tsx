// GET /shared/reports/<token>: a share link's page, for anyone who has the link and no account. It sets no
// cookie, is not to be indexed (X-Robots-Tag and the page's robots meta), sends no Referer to the links in the
// report (the token is in this page's address), and runs nothing but svc's own files.

import type { Frame } from "../../../views/frame.ts";
import { periodTitle, SharedInvalidPage, SharedReportPage } from "../../../views/reports.tsx";
import type { App } from "../../app/context.ts";
import { openSharedReport } from "../../domain/reports/open-shared.ts";
import { iso } from "../../lib/clock.ts";
import { ServiceError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { CSP, pageHeaders } from "./page.ts";

const guestFrame = (title: string, path: string): Frame => ({
  title,
  csrf: "",
  signedIn: null,
  org: null,
  orgs: [],
  livemode: false,
  flash: null,
  path,
  mail: false,
  scopes: [],
});

export async function sharedReportPage(app: App, token: string): Promise<Response> {
  const requestId = newId("req");
  const headers = pageHeaders(requestId, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": CSP,
    "X-Robots-Tag": "noindex, nofollow",
    "Referrer-Policy": "no-referrer",
  });
  const path = "/shared/reports";
  try {
    const { report, orgName, expiresAt } = await openSharedReport(app, token);
    const view = (
      <SharedReportPage
        f={guestFrame(`${report.brand.name} · ${periodTitle(report)}`, path)}
        report={report}
        orgName={orgName}
        expiresAt={iso(expiresAt)}
      />
    );
    return new Response(`<!doctype html>${await view.toString()}`, { status: 200, headers });
  } catch (e) {
    if (!(e instanceof ServiceError) || e.code !== "share_link_invalid") throw e;
    const view = <SharedInvalidPage f={guestFrame("Report link", path)} message={e.message} />;
    return new Response(`<!doctype html>${await view.toString()}`, { status: 404, headers });
  }
}
