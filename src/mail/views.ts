// Email bodies: plain text plus an HTML part rendered from views/mail.tsx, which escapes every value, so a name
// holding markup arrives as text.
import type * as MailViews from "../../views/mail.tsx";
import type { MailFooter, MailLink } from "../../views/mail.tsx";
import { once } from "../lib/once.ts";

// The view (with hono's JSX runtime) loads with the first message written, not at start-up. Required, not
// imported: mailView is synchronous, called inside the transaction that queues the message.
const views = once(() => require("../../views/mail.tsx") as typeof MailViews);

export interface MailView {
  subject: string;
  text: string;
  html: string;
}

export interface MailItem {
  title: string;
  text: string;
  link: MailLink;
}

/**
 * A message of paragraphs and an optional link button; `paragraphs` are plain text. `items` (a summary's entries)
 * and `footer` (why it came and how to stop it) are optional.
 */
export function mailView(
  subject: string,
  paragraphs: string[],
  link?: MailLink,
  extra: { items?: MailItem[]; footer?: MailFooter } = {},
): MailView {
  const text = [
    ...paragraphs,
    ...(link ? [`${link.label}: ${link.href}`] : []),
    ...(extra.items ?? []).map((i) => `${i.title}\n${i.text}\n${i.link.label}: ${i.link.href}`),
    ...(extra.footer
      ? [`--\n${extra.footer.text} ${extra.footer.link.label}: ${extra.footer.link.href}`]
      : []),
  ].join("\n\n");
  const html = `<!doctype html>${views().MailBody({ paragraphs, link, items: extra.items, footer: extra.footer }).toString()}`;
  return { subject, text: `${text}\n`, html };
}
