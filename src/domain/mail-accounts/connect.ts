// POST /v1/mail_accounts: connects a brand to a mail provider account. Everything that can be refused without the
// provider is refused first; then the provider is asked, outside any transaction, whether it takes the credentials
// and has the default audiences; then the account is saved with its secrets sealed.
import type { App } from "../../app/context.ts";
import type { MailAccountsTable } from "../../db/tables/newsletters.ts";
import { conflict } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { parse } from "../validate.ts";
import { presentMailAccount } from "./present.ts";
import {
  checkAudiences,
  checkCredentials,
  providerFor,
  sealMailSecrets,
  splitMailFields,
} from "./provider.ts";
import { MailAccountCreate } from "./schema.ts";

export async function connectMailAccount(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "channels:write");
  const b = parse(MailAccountCreate, input);
  await loadBrand(app.db, actor, b.brand);
  const p = providerFor(actor, b.provider);
  const creds = splitMailFields(p, b.fields ?? {});
  const account = await checkCredentials(app, p, creds);
  const audiences = [...new Set(b.default_audiences ?? [])];
  await checkAudiences(app, p, creds, audiences, "default_audiences");
  const now = app.clock.now();
  try {
    return await inTx(app, async (tx) => {
      const brand = await loadBrand(tx, actor, b.brand);
      const id = newId("mailacct", now);
      const row: MailAccountsTable = {
        id,
        org_id: actor.orgId,
        livemode: actor.livemode ? 1 : 0,
        brand_id: brand.id,
        provider: p.provider,
        account_ref: account.ref,
        display_name: account.name,
        settings: JSON.stringify(creds.settings),
        secrets: await sealMailSecrets(tx, app, actor.orgId, id, creds.secrets),
        from_name: b.from_name,
        from_email: b.from_email,
        reply_to: b.reply_to ?? null,
        default_audiences: JSON.stringify(audiences),
        status: "active",
        created_at: now,
        updated_at: now,
      };
      await tx.insertInto("mail_accounts").values(row).execute();
      await audit(tx, app, actor, {
        action: "mail_account.create",
        target: id,
        detail: { brand: brand.id, provider: p.provider, account: account.name },
      });
      return presentMailAccount(row);
    });
  } catch (e) {
    if (isUniqueViolation(e, "mail_accounts"))
      throw conflict(
        "mail_account_connected",
        `This ${p.name} account (${account.name}) is already connected to the brand.`,
        { param: "fields" },
      );
    throw e;
  }
}
