// Filters of the events list (domain/events/service.ts) that the query builder cannot say.
import { condition } from "./statement.ts";

/** LIKE's own characters in the text searched for, escaped with the ESCAPE character below. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The event's stored JSON holds this ID as a string value (a post's ID: the post's own events and its targets'). */
export const eventMentions = condition<[id: string]>("events", "data LIKE ? ESCAPE '\\'", ([id]) => [
  `%"${escapeLike(id)}"%`,
]);
