// The engagement collector's walk over readings that are due (domain/engagement/collect.ts).
import { condition } from "./statement.ts";

/** Still collecting: a literal, so SQLite can use the partial due index (target_engagement_due, migration 0013). */
export const engagementCollecting = condition<[]>("target_engagement", "state = 'collecting'");
