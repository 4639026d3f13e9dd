// Withdraw a client review link: it stops working at once (the page then answers as for an unknown link).
// Withdrawing twice answers the same link and records nothing new.
import type { App } from "../../app/context.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx } from "../tx.ts";
import { loadReviewLink } from "./list.ts";
import { presentReviewLink } from "./present.ts";

export async function withdrawReviewLink(app: App, actor: Actor, id: string) {
  requireScope(actor, "posts:approve");
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const row = await loadReviewLink(tx, actor, id);
    if (row.withdrawn_at !== null) return presentReviewLink(row, now);
    await tx
      .updateTable("review_links")
      .set({ withdrawn_at: now })
      .where("id", "=", row.id)
      .where("withdrawn_at", "is", null)
      .execute();
    await audit(tx, app, actor, {
      action: "review_link.withdraw",
      target: row.id,
      detail: { brand: row.brand_id },
    });
    return presentReviewLink({ ...row, withdrawn_at: now }, now);
  });
}
