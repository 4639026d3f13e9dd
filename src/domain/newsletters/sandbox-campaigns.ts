// The sandbox mail provider's campaigns, kept in a table of their own (adapters own no tables).
import type { App } from "../../app/context.ts";
import { randomBase62 } from "../../crypto/hash.ts";
import type { SandboxCampaigns } from "../../platforms/mail/types.ts";

export function sandboxCampaigns(app: App): SandboxCampaigns {
  return {
    async create(accountId, c) {
      const id = `sbx_${randomBase62(16)}`;
      await app.db
        .insertInto("sandbox_mail_campaigns")
        .values({
          id,
          mail_account_id: accountId,
          marker: c.marker,
          subject: c.subject,
          audiences: JSON.stringify(c.audiences),
          send_at: c.sendAt,
          status: "scheduled",
          created_at: app.clock.now(),
        })
        .execute();
      return id;
    },
    async findByMarker(accountId, marker) {
      const row = await app.db
        .selectFrom("sandbox_mail_campaigns")
        .select("id")
        .where("mail_account_id", "=", accountId)
        .where("marker", "=", marker)
        .executeTakeFirst();
      return row?.id ?? null;
    },
    async update(accountId, campaignId, set) {
      const r = await app.db
        .updateTable("sandbox_mail_campaigns")
        .set({
          ...(set.sendAt !== undefined ? { send_at: set.sendAt } : {}),
          ...(set.status ? { status: set.status } : {}),
        })
        .where("id", "=", campaignId)
        .where("mail_account_id", "=", accountId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async audiences(accountId, campaignId) {
      const row = await app.db
        .selectFrom("sandbox_mail_campaigns")
        .select("audiences")
        .where("id", "=", campaignId)
        .where("mail_account_id", "=", accountId)
        .executeTakeFirst();
      return row ? (JSON.parse(row.audiences) as string[]) : null;
    },
  };
}
