// A target as the worker holds it from its claim to its recorded outcome: the claim's row, its attempt and the
// channel's details (claimed), then the decision its outcome led to (finished).
import type { PostTargetsTable } from "../../db/tables/posts.ts";
import type { Decision } from "./decide.ts";

export interface Claimed {
  target: PostTargetsTable;
  attemptId: string;
  channel: { provider: string; emulates: string | null; settings: string | null; secrets: string | null };
  metadata: Record<string, string>;
  /** Whether the post lists media (post_media): only then does the worker read and check them. */
  hasMedia: boolean;
}

export interface Finished {
  claimed: Claimed;
  decision: Decision;
}
