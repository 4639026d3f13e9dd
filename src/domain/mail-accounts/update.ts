// POST /v1/mail_accounts/{id}: the sender, the default audiences, or new credentials. New credentials must be
// accepted by the provider and name the same provider account (another account is a new connection); they make
// an account that needed reauthorizing active again.
import type { App } from "../../app/context.ts";
import type { MailAccountsTable } from "../../db/tables/newsletters.ts";
import { invalid, problem } from "../../lib/errors.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { loadMailAccount } from "./load.ts";
import { presentMailAccount } from "./present.ts";
import {
  checkAudiences,
  checkCredentials,
  openCredentials,
  providerFor,
  sealMailSecrets,
  splitMailFields,
} from "./provider.ts";
import { MailAccountUpdate } from "./schema.ts";

export async function updateMailAccount(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "channels:write");
  const b = parse(MailAccountUpdate, input);
  const cur = await loadMailAccount(app.db, actor, id);
  const p = providerFor(actor, cur.provider);
  const creds = b.fields ? splitMailFields(p, b.fields) : await openCredentials(app, cur);
  if (b.fields) {
    const account = await checkCredentials(app, p, creds);
    if (account.ref !== cur.account_ref)
      throw invalid([
        problem(
          "connect_failed",
          `These credentials belong to another ${p.name} account (${account.name}); connect it as a new mail account.`,
          "fields",
        ),
      ]);
  }
  const audiences = b.default_audiences === undefined ? undefined : [...new Set(b.default_audiences)];
  if (audiences) await checkAudiences(app, p, creds, audiences, "default_audiences");
  const now = app.clock.now();
  return inTx(app, async (tx) => {
    const row = await loadMailAccount(tx, actor, id);
    const set: Partial<MailAccountsTable> = { updated_at: now };
    if (b.from_name !== undefined) set.from_name = b.from_name;
    if (b.from_email !== undefined) set.from_email = b.from_email;
    if (b.reply_to !== undefined) set.reply_to = b.reply_to;
    if (audiences !== undefined) set.default_audiences = JSON.stringify(audiences);
    if (b.fields) {
      set.settings = JSON.stringify(creds.settings);
      set.secrets = await sealMailSecrets(tx, app, row.org_id, row.id, creds.secrets);
      set.status = "active";
    }
    await tx.updateTable("mail_accounts").set(set).where("id", "=", row.id).execute();
    await audit(tx, app, actor, {
      action: "mail_account.update",
      target: row.id,
      detail: { fields: Object.keys(b) },
    });
    return presentMailAccount({ ...row, ...set });
  });
}
