// POST /v1/newsletters: a draft issue of a brand, with its deliveries. The body must render (its images are the
// brand's); the providers are asked about the audiences before anything is written.
import type { App } from "../../app/context.ts";
import type { NewslettersTable } from "../../db/tables/newsletters.ts";
import { newId } from "../../lib/ids.ts";
import { sandboxMail } from "../../platforms/mail/sandbox.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { checkDeliveries, writeDeliveries } from "./deliveries.ts";
import { holdImages, renderFor } from "./email.ts";
import { presentedIssue } from "./load.ts";
import { IssueCreate } from "./schema.ts";

export async function createIssue(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "newsletters:write");
  const b = parse(IssueCreate, input);
  const brand = await loadBrand(app.db, actor, b.brand);
  const content = { subject: b.subject, preview_text: b.preview_text ?? "", body: b.body };
  const now = app.clock.now();
  const id = newId("nl", now);
  const rendered = await renderFor(app, app.db, scopeOf(actor), brand, content, sandboxMail, id);
  const deliveries = await checkDeliveries(app, actor, brand.id, b.deliveries ?? []);
  return inTx(app, async (tx) => {
    const row: NewslettersTable = {
      id,
      org_id: actor.orgId,
      livemode: actor.livemode ? 1 : 0,
      brand_id: brand.id,
      status: "draft",
      ...content,
      send_at: null,
      handoff_due_at: null,
      handoff_lease_until: null,
      approval_required: 0,
      reviewed_by: null,
      reviewed_by_key: null,
      reviewed_at: null,
      review_note: null,
      created_by_user: actor.userId,
      created_by_key: actor.apiKeyId,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto("newsletters").values(row).execute();
    await writeDeliveries(tx, row, deliveries, now);
    await holdImages(tx, id, rendered.images, now);
    const presented = await presentedIssue(tx, row);
    await recordEvent(tx, app, scopeOf(actor), "newsletter.created", presented);
    await audit(tx, app, actor, { action: "newsletter.create", target: id, detail: { brand: brand.id } });
    return presented;
  });
}
