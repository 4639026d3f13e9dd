// Resolving a target that failed or whose outcome is unknown: a person's (or an agent's) decision, never a guess.
import * as v from "valibot";
import { segment } from "../api.ts";
import { described, TARGET } from "../fields.ts";
import type { Tool } from "../tool.ts";

export const targetTools: Tool[] = [
  {
    name: "retry_target",
    description:
      "Queue a failed or needs_attention target (ptgt_…, from get_post) for another publish attempt, with a new " +
      "deadline 24 hours from now. Before retrying a needs_attention target, check the network: if the post is " +
      "already there, call mark_target_published instead, or it may be posted twice. Fails with " +
      "target_not_resolvable in any other state. Needs posts:write.",
    annotations: {
      title: "Retry a target",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    input: v.strictObject({ target: described(v.string(), TARGET) }),
    run: (api, a: { target: string }) =>
      api({ method: "POST", path: `/v1/post_targets/${segment(a.target)}/retry` }),
  },
  {
    name: "mark_target_published",
    description:
      "Record that a failed or needs_attention target is in fact on the network (you saw it there), optionally " +
      "with its `permalink`. svc will not publish it again. Fails with target_not_resolvable in any other state. " +
      "Needs posts:write.",
    annotations: {
      title: "Mark a target published",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    input: v.strictObject({
      target: described(v.string(), TARGET),
      permalink: described(
        v.optional(v.string()),
        "The URL of the post on the network, where you saw it; shown as the target's permalink.",
        { format: "uri" },
      ),
    }),
    run: (api, a: { target: string; permalink?: string }) =>
      api({
        method: "POST",
        path: `/v1/post_targets/${segment(a.target)}/mark_published`,
        body: a.permalink === undefined ? {} : { permalink: a.permalink },
      }),
  },
];
