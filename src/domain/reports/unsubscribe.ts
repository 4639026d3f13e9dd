// The report email's unsubscribe (a footer link and RFC 8058 one-click, as notification emails have): the link
// names one brand and one address and is signed with a key derived from the master key, so it needs no account.
// Using it removes the address from the brand's recipients; a changed link, or one whose address is gone already,
// is 404 unsubscribe_link_invalid and changes nothing.
import type { App } from "../../app/context.ts";
import { safeEqual } from "../../crypto/hash.ts";
import { nodeCrypto } from "../../crypto/node.ts";
import { unsubscribeLinkInvalid } from "../notifications/unsubscribe.ts";
import { inTx } from "../tx.ts";

const PURPOSE = "report-unsubscribe";

const mac = (app: App, body: string) =>
  nodeCrypto().createHmac("sha256", app.keys.derivedNow(PURPOSE)).update(body).digest("base64url");

/** Loads the signing key (a round trip only with Transit primary and a cold cache); then signing is sync. */
export const loadReportUnsubscribeKey = (app: App) => app.keys.derived(PURPOSE);

/** A signed token for one brand's address; `loadReportUnsubscribeKey` first. */
export function recipientUnsubscribeToken(app: App, brandId: string, email: string): string {
  const body = Buffer.from(JSON.stringify({ b: brandId, e: email })).toString("base64url");
  return `r.${body}.${mac(app, body)}`;
}

export function recipientUnsubscribeUrls(app: App, token: string) {
  const base = app.config.baseUrl.replace(/\/$/, "");
  return {
    page: `${base}/reports/unsubscribe/${token}`,
    oneClick: `${base}/v1/reports/unsubscribe/${token}`,
  };
}

function open(app: App, token: string): { b: string; e: string } {
  const [kind, body, sig, extra] = String(token).split(".");
  if (kind !== "r" || !body || !sig || extra !== undefined || body.length > 1000)
    throw unsubscribeLinkInvalid();
  if (!safeEqual(sig, mac(app, body))) throw unsubscribeLinkInvalid();
  try {
    const p = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { b: unknown; e: unknown };
    if (typeof p.b === "string" && typeof p.e === "string") return { b: p.b, e: p.e };
  } catch {}
  throw unsubscribeLinkInvalid();
}

/** What the link would stop, for the page that asks first. */
export async function describeRecipientUnsubscribe(app: App, token: string) {
  await loadReportUnsubscribeKey(app);
  const p = open(app, token);
  const row = await app.db
    .selectFrom("report_recipients as r")
    .innerJoin("brands as b", "b.id", "r.brand_id")
    .select(["r.email", "b.name"])
    .where("r.brand_id", "=", p.b)
    .where("r.email", "=", p.e)
    .executeTakeFirst();
  if (!row) throw unsubscribeLinkInvalid();
  return { email: row.email, brandName: row.name };
}

/** Removes the address from the brand's recipients. */
export async function unsubscribeRecipient(app: App, token: string) {
  await loadReportUnsubscribeKey(app);
  const p = open(app, token);
  return inTx(app, async (tx) => {
    const gone = await tx
      .deleteFrom("report_recipients")
      .where("brand_id", "=", p.b)
      .where("email", "=", p.e)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw unsubscribeLinkInvalid();
    return { object: "report_unsubscribe" as const, email: p.e, unsubscribed: true };
  });
}
