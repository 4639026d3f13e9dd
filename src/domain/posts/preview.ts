// POST /v1/posts/preview: what each channel would receive and every rule it breaks. Broken platform rules are
// the answer (valid: false), not an error; a request that cannot be rendered at all (unknown template, invalid
// data, a missing channel) is a 422 as it would be for a create.
import type { App } from "../../app/context.ts";
import { invalid } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { PREVIEW_POST_ID } from "../render/preview-id.ts";
import { parse } from "../validate.ts";
import { preparePost } from "./prepare.ts";
import { PostPreview } from "./schema.ts";

export async function previewPost(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "posts:read");
  const b = parse(PostPreview, input);
  const prep = await preparePost(app.db, app, actor, b, PREVIEW_POST_ID);
  if (prep.problems.length) throw invalid(prep.problems);
  const renditions = prep.renditions.map(({ channel, rendition, notices }) => ({
    ...rendition,
    channel: channel.id,
    notices,
  }));
  return {
    object: "preview" as const,
    valid: renditions.every((r) => r.violations.length === 0),
    renditions,
  };
}
