// Resuming an SSE stream after an event (Last-Event-ID): that event's place in the feed.
import { statement } from "./statement.ts";

/** The event's (tx, seq), when it is one of this org's and mode's (events.id is unique). */
export const eventCursor = statement<
  [eventId: string, orgId: string, livemode: number],
  { tx: number; seq: number }
>("SELECT tx, seq FROM events WHERE id = ? AND org_id = ? AND livemode = ?");
