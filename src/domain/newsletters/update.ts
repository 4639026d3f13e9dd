// POST /v1/newsletters/{id}: a draft's subject, preview text, body or deliveries (issue_not_draft otherwise).
import type { App } from "../../app/context.ts";
import type { NewslettersTable } from "../../db/tables/newsletters.ts";
import { conflict } from "../../lib/errors.ts";
import { sandboxMail } from "../../platforms/mail/sandbox.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { type CheckedDelivery, checkDeliveries, writeDeliveries } from "./deliveries.ts";
import { holdImages, renderFor } from "./email.ts";
import { loadIssue, presentedIssue } from "./load.ts";
import { IssueUpdate } from "./schema.ts";

export const notDraft = () =>
  conflict("issue_not_draft", "Only a draft issue can be changed; unschedule it first.");

export async function updateIssue(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "newsletters:write");
  const b = parse(IssueUpdate, input);
  const cur = await loadIssue(app.db, actor, id);
  if (cur.status !== "draft") throw notDraft();
  const brand = await loadBrand(app.db, actor, cur.brand_id);
  const content = {
    subject: b.subject ?? cur.subject,
    preview_text: b.preview_text ?? cur.preview_text,
    body: b.body ?? cur.body,
  };
  const rendered = await renderFor(app, app.db, scopeOf(actor), brand, content, sandboxMail, cur.id);
  let deliveries: CheckedDelivery[] | undefined;
  if (b.deliveries) deliveries = await checkDeliveries(app, actor, brand.id, b.deliveries);
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const set: Partial<NewslettersTable> = { ...content, updated_at: now };
    // Only while still a draft: a schedule that came in between wins, and this change is refused.
    const r = await tx
      .updateTable("newsletters")
      .set(set)
      .where("id", "=", cur.id)
      .where("status", "=", "draft")
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw notDraft();
    if (deliveries) await writeDeliveries(tx, cur, deliveries, now);
    await holdImages(tx, cur.id, rendered.images, now);
    const presented = await presentedIssue(tx, { ...cur, ...set });
    await recordEvent(tx, app, scopeOf(actor), "newsletter.updated", presented);
    await audit(tx, app, actor, {
      action: "newsletter.update",
      target: cur.id,
      detail: { fields: Object.keys(b) },
    });
    return presented;
  });
}
