// The share link's page: the token is the permission (no account). A changed, unknown, withdrawn or expired token,
// or one of a suspended org, is the same 404 share_link_invalid; the brand's month is computed as any report is,
// with every section (a link shows what its creator, an admin or owner, may see).
import type { App } from "../../app/context.ts";
import { sha256hex } from "../../crypto/hash.ts";
import { ServiceError } from "../../lib/errors.ts";
import { buildReport } from "./build.ts";
import { monthPeriod } from "./period.ts";

export const shareLinkInvalid = () =>
  new ServiceError(
    404,
    "share_link_invalid",
    "This report link is not valid: it was changed, withdrawn, or has expired. Ask for a new link.",
  );

export async function openSharedReport(app: App, token: string) {
  if (!/^rpt_[0-9A-Za-z]{40}$/.test(token)) throw shareLinkInvalid();
  const row = await app.db
    .selectFrom("report_share_links as l")
    .innerJoin("orgs as o", "o.id", "l.org_id")
    .innerJoin("brands as b", "b.id", "l.brand_id")
    .select([
      "l.id",
      "l.org_id",
      "l.livemode",
      "l.month",
      "l.expires_at",
      "l.revoked_at",
      "o.status as org_status",
      "o.name as org_name",
      "b.id as brand_id",
      "b.name as brand_name",
      "b.slug as brand_slug",
      "b.timezone as brand_timezone",
    ])
    .where("l.token_hash", "=", sha256hex(token))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.expires_at <= app.clock.now() || row.org_status === "suspended")
    throw shareLinkInvalid();
  const report = await buildReport(
    app,
    "share_link",
    { id: row.org_id, livemode: row.livemode === 1 },
    { id: row.brand_id, name: row.brand_name, slug: row.brand_slug, timezone: row.brand_timezone },
    monthPeriod(row.month, row.brand_timezone),
  );
  return { report, orgName: row.org_name, expiresAt: row.expires_at };
}
