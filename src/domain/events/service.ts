// Reading events: the list (30 days, newest first, filter by type) and one event by ID. The live stream is in
// stream.ts. Events are org-wide, so a brand-limited key may not read them (reference §1).
import type { App } from "../../app/context.ts";
import { eventMentions } from "../../db/sql/event-filters.ts";
import { where } from "../../db/sql/statement.ts";
import { badRequest, forbidden, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { type Actor, requireScope } from "../actor.ts";
import { listParams, page } from "../pagination.ts";
import { presentEvent } from "./present.ts";
import { EVENT_TYPES } from "./types.ts";

export const EVENT_RETENTION_MS = 30 * 86400_000;

export function refuseBrandLimited(actor: Actor, what: string): void {
  if (actor.brandId) throw forbidden("forbidden", `A brand-limited key cannot ${what}.`);
}

export function requireEventsRead(actor: Actor): void {
  requireScope(actor, "events:read");
  refuseBrandLimited(actor, "read events");
}

export const isEventType = (s: string) => (EVENT_TYPES as readonly string[]).includes(s);

/**
 * `post` (the dashboard's filter, not an API parameter): only the events that carry that post's ID, the post's own
 * and its targets'. Matched in the stored JSON of the org's events of the last 30 days, read newest first until the
 * page is full; a post has a few events, so a post's page of them reads the window once.
 */
export async function listEvents(
  app: App,
  actor: Actor,
  query: Record<string, unknown>,
  opts: { post?: string } = {},
) {
  requireEventsRead(actor);
  if (opts.post !== undefined && !isId("post", opts.post))
    throw badRequest("parameter_invalid", `${opts.post} is not a post ID.`, "post");
  const p = listParams(query, "evt");
  const type = query.type === undefined || query.type === "" ? null : String(query.type);
  if (type !== null && !isEventType(type))
    throw badRequest("parameter_invalid", `Unknown event type ${type}.`, "type");
  let q = app.db
    .selectFrom("events")
    .select(["id", "type", "livemode", "request_id", "created_at", "data"])
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .where("created_at", ">=", app.clock.now() - EVENT_RETENTION_MS);
  if (type !== null) q = q.where("type", "=", type);
  if (opts.post !== undefined) q = q.where(where(app.dialect, eventMentions, [opts.post]));
  return page(q, p, "/v1/events", presentEvent);
}

export async function getEvent(app: App, actor: Actor, id: string) {
  requireEventsRead(actor);
  const row = isId("evt", id)
    ? await app.db
        .selectFrom("events")
        .select(["id", "type", "livemode", "request_id", "created_at", "data"])
        .where("id", "=", id)
        .where("org_id", "=", actor.orgId)
        .where("livemode", "=", actor.livemode ? 1 : 0)
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound(`No event ${id}.`, "id");
  return presentEvent(row);
}
