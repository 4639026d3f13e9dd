// Account notices (interface.md Notifications): password changed or reset, passkey added, two-factor turned off,
// a CLI signed in as you. Always emailed to the person, immediately, and cannot be turned off. Queued in the
// change's transaction and sent after it commits; a failure to send is logged and never undoes the change.
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { mailerOf } from "../../mail/mailer.ts";
import { enqueueMail, kickMail } from "../../mail/outbox.ts";
import { mailView } from "../../mail/views.ts";
import { inTx } from "../tx.ts";

export const ACCOUNT_NOTICES = [
  "account.password_changed",
  "account.password_reset",
  "account.passkey_added",
  "account.mfa_disabled",
  "account.cli_signed_in",
] as const;
export type AccountNotice = (typeof ACCOUNT_NOTICES)[number];

export type NoticeDetail = Record<string, string | number | boolean | null | undefined>;

function noticeView(app: App, type: AccountNotice, d: NoticeDetail) {
  const base = app.config.baseUrl.replace(/\/$/, "");
  const notYou = "If this was not you, reset your password now and review your account's devices and keys.";
  const ip = d.ip ? ` from ${d.ip}` : "";
  switch (type) {
    case "account.password_changed":
      return mailView(
        "Your svc password was changed",
        [
          `The password of your account on ${base} was changed${ip}.`,
          "Every CLI sign-in was signed out.",
          notYou,
        ],
        { href: `${base}/reset`, label: "Reset your password" },
      );
    case "account.password_reset":
      return mailView(
        "Your svc password was reset",
        [
          `The password of your account on ${base} was reset with an emailed link${ip}.`,
          "Every CLI sign-in was signed out.",
          notYou,
        ],
        { href: `${base}/reset`, label: "Reset your password" },
      );
    case "account.passkey_added":
      return mailView("A passkey was added to your svc account", [
        `A passkey${d.name ? ` named "${d.name}"` : ""} was added to your account on ${base}${ip}.`,
        notYou,
      ]);
    case "account.mfa_disabled":
      return mailView("Two-factor sign-in was turned off", [
        `Two-factor sign-in was turned off for your account on ${base}${ip}.`,
        notYou,
      ]);
    case "account.cli_signed_in":
      return mailView(
        "A CLI signed in as you",
        [
          `A command-line client${d.device_name ? ` named "${d.device_name}"` : ""} signed in as you on ${base} in ${d.livemode ? "live" : "test"} mode${d.ip ? ` (requested from ${d.ip})` : ""}.`,
          "If this was not you, revoke it on the Devices page and change your password.",
        ],
        { href: `${base}/devices`, label: "Your devices" },
      );
  }
}

/** Queues the notice in `tx`; call kickMail(app) after the commit (sendAccountNotice does both). */
export async function sendAccountNoticeInTx(
  tx: Tx,
  app: App,
  userId: string,
  type: AccountNotice,
  detail: NoticeDetail = {},
): Promise<void> {
  if (!mailerOf(app)) {
    // No email on this server: nothing is queued that could never be sent.
    app.log.info("account notice not emailed: SMTP is not configured", { user: userId, type });
    return;
  }
  const user = await tx.selectFrom("users").select(["email"]).where("id", "=", userId).executeTakeFirst();
  if (!user) return;
  await enqueueMail(tx, app, { userId, to: user.email, kind: type, view: noticeView(app, type, detail) });
}

/**
 * Sends an account notice now (best effort): for changes made elsewhere (the dashboard's passkey and two-factor
 * pages). Never throws for a mail failure; the returned promise settles once the attempt is over.
 */
export async function sendAccountNotice(
  app: App,
  userId: string,
  type: AccountNotice,
  detail: NoticeDetail = {},
): Promise<void> {
  try {
    await inTx(app, (tx) => sendAccountNoticeInTx(tx, app, userId, type, detail));
    await kickMail(app);
  } catch (e) {
    app.log.warn("account notice failed", { user: userId, type, error: String(e) });
  }
}
