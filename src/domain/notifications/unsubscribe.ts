// Unsubscribe links (interface.md: a signed footer link and RFC 8058 one-click): a link names one person, one org
// and the types its email was about, and turns email off for exactly those, without signing in. The payload is
// signed with a key derived from the master key; a link works once (its nonce is kept once used) and for a year
// (the notifications' own retention). A changed link, one for a person no longer in the org, a used or expired one:
// all the same 404 unsubscribe_link_invalid, and nothing changes.
import { randomBytes } from "node:crypto";
import type { App } from "../../app/context.ts";
import { safeEqual } from "../../crypto/hash.ts";
import { nodeCrypto } from "../../crypto/node.ts";
import { ServiceError } from "../../lib/errors.ts";
import { inTx, isUniqueViolation } from "../tx.ts";
import { setTypePreference } from "./preferences.ts";
import { isNotificationType, LINK_TTL_MS, type NotificationType, TYPE_LABEL } from "./types.ts";

const PURPOSE = "notification-unsubscribe";

interface Payload {
  /** user, org, types, nonce, expires (epoch ms) */
  u: string;
  o: string;
  t: NotificationType[];
  n: string;
  e: number;
}

export const unsubscribeLinkInvalid = () =>
  new ServiceError(
    404,
    "unsubscribe_link_invalid",
    "This unsubscribe link is not valid: it was changed, used already, or has expired. Change your email " +
      "preferences in the dashboard instead.",
  );

/** Loads the links' signing key (a round trip only with Transit primary and a cold cache); then signing is sync. */
export const loadUnsubscribeKey = (app: App) => app.keys.derived(PURPOSE);

const mac = (app: App, body: string) =>
  nodeCrypto().createHmac("sha256", app.keys.derivedNow(PURPOSE)).update(body).digest("base64url");

/** A signed link for one person, org and types; `loadUnsubscribeKey` first. */
export function unsubscribeToken(app: App, userId: string, orgId: string, types: NotificationType[]): string {
  const p: Payload = {
    u: userId,
    o: orgId,
    t: [...new Set(types)],
    n: randomBytes(12).toString("base64url"),
    e: app.clock.now() + LINK_TTL_MS,
  };
  const body = Buffer.from(JSON.stringify(p)).toString("base64url");
  return `${body}.${mac(app, body)}`;
}

/** The footer link (a dashboard page that asks first) and the one-click address (RFC 8058 POST). */
export function unsubscribeUrls(app: App, token: string) {
  const base = app.config.baseUrl.replace(/\/$/, "");
  return { page: `${base}/unsubscribe/${token}`, oneClick: `${base}/v1/unsubscribe/${token}` };
}

function open(app: App, token: string): Payload {
  const [body, sig, extra] = String(token).split(".");
  if (!body || !sig || extra !== undefined || body.length > 2000) throw unsubscribeLinkInvalid();
  if (!safeEqual(sig, mac(app, body))) throw unsubscribeLinkInvalid();
  let p: Payload;
  try {
    p = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Payload;
  } catch {
    throw unsubscribeLinkInvalid();
  }
  if (
    typeof p.u !== "string" ||
    typeof p.o !== "string" ||
    typeof p.n !== "string" ||
    typeof p.e !== "number" ||
    !Array.isArray(p.t) ||
    p.t.length === 0 ||
    !p.t.every(isNotificationType)
  )
    throw unsubscribeLinkInvalid();
  if (p.e < app.clock.now()) throw unsubscribeLinkInvalid();
  return p;
}

/** What the link would turn off, for the page that asks first. Throws unsubscribe_link_invalid. */
export async function describeUnsubscribe(app: App, token: string) {
  await loadUnsubscribeKey(app);
  const p = open(app, token);
  const [used, who] = await Promise.all([
    app.db.selectFrom("unsubscribe_uses").select("nonce").where("nonce", "=", p.n).executeTakeFirst(),
    app.db
      .selectFrom("members")
      .innerJoin("users", "users.id", "members.user_id")
      .innerJoin("orgs", "orgs.id", "members.org_id")
      .select(["users.email", "orgs.name as org_name"])
      .where("members.user_id", "=", p.u)
      .where("members.org_id", "=", p.o)
      .executeTakeFirst(),
  ]);
  if (used || !who) throw unsubscribeLinkInvalid();
  return {
    email: who.email,
    orgName: who.org_name,
    types: p.t.map((t) => ({ type: t, label: TYPE_LABEL[t] })),
  };
}

/** Turns email off for the link's types; the link is used up in the same transaction. */
export async function unsubscribe(app: App, token: string) {
  await loadUnsubscribeKey(app);
  const p = open(app, token);
  return inTx(app, async (tx) => {
    const member = await tx
      .selectFrom("members")
      .innerJoin("orgs", "orgs.id", "members.org_id")
      .select(["orgs.name"])
      .where("members.user_id", "=", p.u)
      .where("members.org_id", "=", p.o)
      .executeTakeFirst();
    if (!member) throw unsubscribeLinkInvalid();
    try {
      await tx.insertInto("unsubscribe_uses").values({ nonce: p.n, used_at: app.clock.now() }).execute();
    } catch (e) {
      if (isUniqueViolation(e)) throw unsubscribeLinkInvalid();
      throw e;
    }
    for (const t of p.t) await setTypePreference(tx, app, p.u, p.o, t, { email: false });
    return { object: "unsubscribe" as const, org: p.o, org_name: member.name, types: p.t, email: false };
  });
}
