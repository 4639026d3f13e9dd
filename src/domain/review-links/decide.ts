// A client's decision through a review link: approve or reject one of the link's brand's posts waiting for
// approval, with an optional note. It is the same approval as a member's (approvePost / rejectPost: the slot, the
// events post.approved / post.rejected, the webhooks), recorded as the link's: the post's review and the audit
// row name the link, not a member. The rules of review hold for the link as for its creator: a link never
// approves what its own creator wrote (else an admin could approve their own post through a link they made), and
// it acts only in an active org.
import type { App } from "../../app/context.ts";
import type { PostsTable } from "../../db/tables/posts.ts";
import type { ReviewLinksTable } from "../../db/tables/review-links.ts";
import { forbidden, ServiceError } from "../../lib/errors.ts";
import { approvePost } from "../posts/approve.ts";
import { loadPost } from "../posts/load.ts";
import { rejectPost } from "../posts/reject.ts";
import { openReviewLink } from "./open.ts";
import { formTokenValid } from "./token.ts";

/** Written by the person, or the key (any key of its roll chain), that made the link. */
export async function creatorWrote(
  app: App,
  link: Pick<ReviewLinksTable, "created_by_user" | "created_by_key">,
  post: Pick<PostsTable, "created_by_user" | "created_by_key">,
): Promise<boolean> {
  if (link.created_by_user !== null)
    return post.created_by_key === null && post.created_by_user === link.created_by_user;
  return keyChainWrote(app, link, post);
}

export type Decision = "approve" | "reject";

export async function decideByLink(
  app: App,
  token: string,
  input: { post: string; decision: Decision; note?: string | undefined; form: string | null },
) {
  const { link, actor } = await openReviewLink(app, token, { write: true });
  // The form must come from a page this server rendered for this link (the page's CSRF token).
  if (!(await formTokenValid(app, link.id, input.form)))
    throw new ServiceError(
      403,
      "csrf_invalid",
      "This form is out of date or from another page; reload the page and try again. Nothing changed.",
    );
  const post = await loadPost(app.db, actor, input.post, "post");
  if (await creatorWrote(app, link, post))
    throw forbidden(
      "forbidden",
      "The person who shared this link wrote this post; another admin reviews it.",
    );
  const body = input.note ? { note: input.note } : {};
  const out =
    input.decision === "approve"
      ? await approvePost(app, actor, post.id, body)
      : await rejectPost(app, actor, post.id, body);
  await app.db
    .updateTable("review_links")
    .set({ last_used_at: app.clock.now() })
    .where("id", "=", link.id)
    .execute();
  return out;
}

/** A link a key made does not review what that key (or a key of its roll chain) created. */
async function keyChainWrote(
  app: App,
  link: Pick<ReviewLinksTable, "created_by_key">,
  post: Pick<PostsTable, "created_by_key">,
): Promise<boolean> {
  if (!link.created_by_key || !post.created_by_key) return false;
  if (post.created_by_key === link.created_by_key) return true;
  const k = await app.db
    .selectFrom("api_keys")
    .select(["id", "lineage_id"])
    .where("id", "=", post.created_by_key)
    .executeTakeFirst();
  return !!k && (k.lineage_id ?? k.id) === link.created_by_key;
}
