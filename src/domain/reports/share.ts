// POST /v1/reports/share_links: an account-free, read-only link to one brand's month, valid 30 days. Admins and
// owners (brands:write). The token is shown once; only its SHA-256 is stored. Audited as report.share.
import type { App } from "../../app/context.ts";
import { randomBase62, sha256hex } from "../../crypto/hash.ts";
import type { Tx } from "../../db/index.ts";
import type { ReportShareLinksTable } from "../../db/tables/reports.ts";
import { newId } from "../../lib/ids.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { lastMonth, monthPeriod } from "./period.ts";
import { presentShareLink } from "./present.ts";
import { ShareLinkInput } from "./schema.ts";

export const SHARE_LINK_TTL_MS = 30 * 86400_000;
/** Share tokens: "rpt_" and 40 base62 characters (238 bits). */
const TOKEN_PREFIX = "rpt_";

export const shareLinkUrl = (app: App, token: string) =>
  `${app.config.baseUrl.replace(/\/$/, "")}/shared/reports/${token}`;

/** Stores a new link (in the caller's transaction); returns the row and the token, which is never stored. */
export async function insertShareLink(
  tx: Tx,
  app: App,
  link: Pick<ReportShareLinksTable, "org_id" | "brand_id" | "livemode" | "month"> &
    Partial<Pick<ReportShareLinksTable, "created_by_user" | "created_by_key" | "created_by_task">>,
): Promise<{ row: ReportShareLinksTable; token: string }> {
  const now = app.clock.now();
  const token = `${TOKEN_PREFIX}${randomBase62(40)}`;
  const row: ReportShareLinksTable = {
    id: newId("rshare", now),
    org_id: link.org_id,
    brand_id: link.brand_id,
    livemode: link.livemode,
    month: link.month,
    token_hash: sha256hex(token),
    hint: token.slice(-4),
    created_by_user: link.created_by_user ?? null,
    created_by_key: link.created_by_key ?? null,
    created_by_task: link.created_by_task ?? null,
    created_at: now,
    expires_at: now + SHARE_LINK_TTL_MS,
    revoked_at: null,
  };
  await tx.insertInto("report_share_links").values(row).execute();
  return { row, token };
}

export async function shareReport(app: App, actor: Actor, body: unknown) {
  requireScope(actor, "brands:write");
  const input = parse(ShareLinkInput, body);
  const brand = await loadBrand(app.db, actor, input.brand);
  const month = input.month ?? lastMonth(app.clock.now(), brand.timezone);
  monthPeriod(month, brand.timezone); // month_invalid before anything is stored
  return inTx(app, async (tx) => {
    const { row, token } = await insertShareLink(tx, app, {
      org_id: actor.orgId,
      brand_id: brand.id,
      livemode: actor.livemode ? 1 : 0,
      month,
      created_by_user: actor.userId,
      created_by_key: actor.apiKeyId,
    });
    await audit(tx, app, actor, {
      action: "report.share",
      target: row.id,
      detail: { brand: brand.id, month },
    });
    return presentShareLink(row, { secret: token, url: shareLinkUrl(app, token) });
  });
}
