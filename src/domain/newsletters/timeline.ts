// An issue's timeline: the audited changes made to it (created, updated, scheduled, approved, canceled, handed
// off…), oldest first, for the dashboard's issue page. Reading the issue's own history needs only the right to
// read the issue (newsletters:read), not the org-wide audit log's audit:read.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { presentAudit } from "../audit/present.ts";
import { loadIssue } from "./load.ts";

/** An issue collects a few dozen entries at most; the cap keeps a pathological history from filling a page. */
const MAX_ENTRIES = 200;

export async function issueTimeline(app: App, actor: Actor, id: string) {
  requireScope(actor, "newsletters:read");
  const row = await loadIssue(app.db, actor, id);
  const rows = await app.db
    .selectFrom("audit_events")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("target", "=", row.id)
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .limit(MAX_ENTRIES)
    .execute();
  return rows.map(presentAudit);
}
