// POST /v1/newsletters/{id}/test {mail_account, to}: the issue as that account's recipients will get it, to 1 to 5
// addresses, marked [Test]. Through the provider (Brevo: a transactional email); the sandbox's go out by the
// install's own SMTP (503 mail_unavailable without it). The addresses are used for this send and not kept.
import type { App } from "../../app/context.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { requireMailer } from "../../mail/mailer.ts";
import { type Actor, brandVisible, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { scopeOf } from "../events/record.ts";
import { openCredentials, providerFor, unavailable } from "../mail-accounts/provider.ts";
import { rowInScope } from "../scope.ts";
import { parse } from "../validate.ts";
import { renderFor } from "./email.ts";
import { loadIssue } from "./load.ts";
import { TestSend } from "./schema.ts";

export async function sendTest(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "newsletters:write");
  const b = parse(TestSend, input);
  const issue = await loadIssue(app.db, actor, id);
  const account = await rowInScope(app.db, actor, "mail_accounts", "mailacct", b.mail_account);
  if (!account || account.brand_id !== issue.brand_id || !brandVisible(actor, account.brand_id))
    throw invalid([
      problem("mail_account_unknown", `No mail account ${b.mail_account} of this brand.`, "mail_account"),
    ]);
  const p = providerFor(actor, account.provider);
  const brand = await loadBrand(app.db, actor, issue.brand_id);
  const r = await renderFor(app, app.db, scopeOf(actor), brand, issue, p, issue.id);
  const subject = `[Test] ${issue.subject}`;
  if (p.sendTest) {
    const a = await p.sendTest(app, await openCredentials(app, account), {
      to: b.to,
      subject,
      html: r.html,
      text: r.text,
      fromName: account.from_name,
      fromEmail: account.from_email,
      replyTo: account.reply_to,
    });
    if (a.kind !== "ok") throw unavailable(p, a.message);
  } else {
    const mailer = requireMailer(app);
    for (const to of b.to) await mailer.send({ to, subject, html: r.html, text: r.text });
  }
  await audit(app.db, app, actor, {
    action: "newsletter.test",
    target: issue.id,
    detail: { mail_account: account.id, recipients: b.to.length },
  });
  return {
    object: "newsletter_test" as const,
    newsletter: issue.id,
    mail_account: account.id,
    sent: b.to.length,
  };
}
