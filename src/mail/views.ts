// Email bodies: plain text plus an HTML part rendered from views/mail.tsx, which escapes every value, so a name
// holding markup arrives as text.
import type * as MailViews from "../../views/mail.tsx";
import type { MailLink } from "../../views/mail.tsx";
import { once } from "../lib/once.ts";

// The view (with hono's JSX runtime) loads with the first message written, not at start-up. Required, not
// imported: mailView is synchronous, called inside the transaction that queues the message.
const views = once(() => require("../../views/mail.tsx") as typeof MailViews);

export interface MailView {
  subject: string;
  text: string;
  html: string;
}

/** A message of paragraphs and an optional link button; `paragraphs` are plain text. */
export function mailView(subject: string, paragraphs: string[], link?: MailLink): MailView {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.href}`] : [])].join("\n\n");
  const html = `<!doctype html>${views().MailBody({ paragraphs, link }).toString()}`;
  return { subject, text: `${text}\n`, html };
}
