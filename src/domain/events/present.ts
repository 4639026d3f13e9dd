import type { EventsTable } from "../../db/schema.ts";
import { iso } from "../../lib/clock.ts";

/** The public Event envelope (reference §4). */
export const presentEvent = (
  r: Pick<EventsTable, "id" | "type" | "livemode" | "request_id" | "created_at" | "data">,
) => ({
  id: r.id,
  object: "event" as const,
  type: r.type,
  livemode: r.livemode === 1,
  request_id: r.request_id,
  created_at: iso(r.created_at),
  data: JSON.parse(r.data) as { object: unknown },
});
