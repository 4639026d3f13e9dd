// The rendered email as recipients will see it: POST /v1/newsletters/preview (content not saved) and
// GET /v1/newsletters/{id}/preview. The provider whose unsubscribe placeholder and utm_source show is the named
// mail account's, else the issue's first delivery's, else the brand's first mail account's in this mode, else
// the sandbox's.
import type { App } from "../../app/context.ts";
import type { BrandsTable } from "../../db/schema.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { mailProvider } from "../../platforms/mail/registry.ts";
import { sandboxMail } from "../../platforms/mail/sandbox.ts";
import type { MailProvider } from "../../platforms/mail/types.ts";
import { type Actor, brandVisible, requireScope } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { scopeOf } from "../events/record.ts";
import { rowInScope } from "../scope.ts";
import { parse } from "../validate.ts";
import { type Content, renderFor } from "./email.ts";
import { deliveriesOf, loadIssue } from "./load.ts";
import { PREVIEW_ISSUE_ID } from "./render.ts";
import { IssuePreview } from "./schema.ts";

async function providerOf(
  app: App,
  actor: Actor,
  brand: BrandsTable,
  named: string | undefined,
  firstDelivery: string | undefined,
): Promise<MailProvider> {
  if (named) {
    const acct = await rowInScope(app.db, actor, "mail_accounts", "mailacct", named);
    if (!acct || acct.brand_id !== brand.id || !brandVisible(actor, acct.brand_id))
      throw invalid([
        problem("mail_account_unknown", `No mail account ${named} of this brand.`, "mail_account"),
      ]);
    return mailProvider(acct.provider) ?? sandboxMail;
  }
  if (firstDelivery) return mailProvider(firstDelivery) ?? sandboxMail;
  const first = await app.db
    .selectFrom("mail_accounts")
    .select("provider")
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0)
    .where("brand_id", "=", brand.id)
    .orderBy("id")
    .executeTakeFirst();
  return (first && mailProvider(first.provider)) || sandboxMail;
}

async function preview(
  app: App,
  actor: Actor,
  brand: BrandsTable,
  content: Content,
  p: MailProvider,
  id: string,
) {
  const r = await renderFor(app, app.db, scopeOf(actor), brand, content, p, id);
  return {
    object: "newsletter_preview" as const,
    brand: brand.id,
    provider: p.provider,
    subject: content.subject,
    preview_text: content.preview_text,
    html: r.html,
    text: r.text,
    links: r.links,
    images: r.images,
  };
}

export async function previewContent(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "newsletters:read");
  const b = parse(IssuePreview, input);
  const brand = await loadBrand(app.db, actor, b.brand);
  const p = await providerOf(app, actor, brand, b.mail_account, undefined);
  const content = { subject: b.subject, preview_text: b.preview_text ?? "", body: b.body };
  return preview(app, actor, brand, content, p, PREVIEW_ISSUE_ID);
}

export async function previewIssue(app: App, actor: Actor, id: string, query: Record<string, unknown>) {
  requireScope(actor, "newsletters:read");
  const issue = await loadIssue(app.db, actor, id);
  const brand = await loadBrand(app.db, actor, issue.brand_id);
  const deliveries = (await deliveriesOf(app.db, [issue.id])).sort((a, b) => a.position - b.position);
  const named =
    typeof query.mail_account === "string" && query.mail_account !== "" ? query.mail_account : undefined;
  const p = await providerOf(app, actor, brand, named, deliveries[0]?.provider);
  return preview(app, actor, brand, issue, p, issue.id);
}
