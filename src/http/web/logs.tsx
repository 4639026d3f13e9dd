// /events, /audit and /requests: the org's event log (this mode, 30 days), audit log (admins and owners) and request
// log (admins and owners; this mode, 14 days), each with its filters as a GET form and cursor paging. Thin over
// listEvents (GET /v1/events), listAudit (GET /v1/audit_events) and listRequests, as the signed-in member; a
// filter the domain refuses is shown beside its field with the list left empty.

import type { FieldErrors } from "../../../views/frame.ts";
import { AuditPage, EventsPage, RequestsPage } from "../../../views/logs.tsx";
import { listAudit } from "../../domain/audit/service.ts";
import { listEvents } from "../../domain/events/service.ts";
import { EVENT_TYPES } from "../../domain/events/types.ts";
import { listMembers } from "../../domain/identity/members/service.ts";
import type { ListEnvelope } from "../../domain/pagination.ts";
import { listRequests, requestCredentials } from "../../domain/requests/list.ts";
import { ServiceError } from "../../lib/errors.ts";
import { type Cursors, cursorLinks, pagingQuery } from "./cursor.ts";
import { fieldErrors, frame, render, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const PAGE_SIZE = "50";

/** One page of a list with the URL's filters and cursor; a refused filter gives no rows and its problem. */
async function listed<T extends { id: string }>(
  w: Web,
  path: string,
  filters: Record<string, string>,
  call: (query: Record<string, string>) => Promise<ListEnvelope<T>>,
): Promise<{ rows: T[]; cursors: Cursors; errors?: FieldErrors; status: number }> {
  const q = w.url.searchParams;
  const query: Record<string, string> = { limit: PAGE_SIZE, ...pagingQuery(q) };
  for (const [k, v] of Object.entries(filters)) if (v !== "") query[k] = v;
  try {
    const env = await call(query);
    return { rows: env.data, cursors: cursorLinks(path, filters, q, env.data, env.has_more), status: 200 };
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 403) throw e;
    return { rows: [], cursors: { older: null, newer: null }, errors: fieldErrors(e), status: e.status };
  }
}

const param = (w: Web, k: string) => (w.url.searchParams.get(k) ?? "").trim();

async function events(w: Web) {
  const filters = { type: param(w, "type"), post: param(w, "post") };
  // `post` is the page's own filter (listEvents' option), not a parameter of GET /v1/events.
  const r = await listed(w, "/events", filters, ({ post: _post, ...q }) =>
    listEvents(w.app, w.member!.actor, q, filters.post ? { post: filters.post } : {}),
  );
  return render(
    w,
    <EventsPage
      f={frame(w, "Events", "events")}
      types={[...EVENT_TYPES]}
      filters={filters}
      events={r.rows}
      older={r.cursors.older}
      newer={r.cursors.newer}
      errors={r.errors}
    />,
    r.status,
  );
}

async function audit(w: Web) {
  const actor = w.member!.actor;
  const filters = { action: param(w, "action"), outcome: param(w, "outcome") };
  const [r, members, creds] = await Promise.all([
    listed(w, "/audit", filters, (q) => listAudit(w.app, actor, q)),
    listMembers(w.app, actor),
    requestCredentials(w.app, actor),
  ]);
  const names: Record<string, string> = {};
  for (const m of members) names[m.id] = m.name ? `${m.name} (${m.email})` : m.email;
  for (const c of creds) names[c.id] = c.label;
  return render(
    w,
    <AuditPage
      f={frame(w, "Audit log", "audit")}
      filters={filters}
      rows={r.rows}
      names={names}
      older={r.cursors.older}
      newer={r.cursors.newer}
      errors={r.errors}
    />,
    r.status,
  );
}

async function requests(w: Web) {
  const actor = w.member!.actor;
  const filters = { status: param(w, "status"), code: param(w, "code"), key: param(w, "key") };
  const [r, creds] = await Promise.all([
    listed(w, "/requests", filters, (q) => listRequests(w.app, actor, q)),
    requestCredentials(w.app, actor),
  ]);
  return render(
    w,
    <RequestsPage
      f={frame(w, "Request log", "requests")}
      filters={filters}
      rows={r.rows}
      keys={creds}
      names={Object.fromEntries(creds.map((c) => [c.id, c.label]))}
      older={r.cursors.older}
      newer={r.cursors.newer}
      errors={r.errors}
    />,
    r.status,
  );
}

export const logRoutes: WebRoute[] = [
  { method: "GET", path: "/events", access: "member", org: "read", needs: "events:read", handler: events },
  { method: "GET", path: "/audit", access: "member", org: "read", needs: "audit:read", handler: audit },
  { method: "GET", path: "/requests", access: "member", org: "read", needs: "audit:read", handler: requests },
];
