// An email's HTML part: paragraphs of plain text and an optional link, auto-escaped like every page, inline
// styles only (mail clients drop style sheets).
export interface MailLink {
  href: string;
  label: string;
}

/** A small print line under the message (why this came, and the link that stops it). */
export interface MailFooter {
  text: string;
  link: MailLink;
}

export function MailBody(props: {
  paragraphs: string[];
  link?: MailLink | undefined;
  /** A list of items (a daily summary), each a heading line, a text and a link. */
  items?: { title: string; text: string; link: MailLink }[] | undefined;
  footer?: MailFooter | undefined;
}) {
  return (
    <html lang="en">
      <body style="font-family:sans-serif;color:#1a1a1a;max-width:560px">
        {props.paragraphs.map((p) => (
          <p>{p}</p>
        ))}
        {props.link ? (
          <p>
            <a href={props.link.href} style="color:#0b57d0">
              {props.link.label}
            </a>
          </p>
        ) : null}
        {(props.items ?? []).map((i) => (
          <div style="border-top:1px solid #e3e3e3;padding:12px 0">
            <p style="margin:0 0 4px 0">
              <strong>{i.title}</strong>
            </p>
            <p style="margin:0 0 4px 0">{i.text}</p>
            <p style="margin:0">
              <a href={i.link.href} style="color:#0b57d0">
                {i.link.label}
              </a>
            </p>
          </div>
        ))}
        {props.footer ? (
          <p style="margin-top:24px;padding-top:12px;border-top:1px solid #e3e3e3;font-size:12px;color:#5f6368">
            {props.footer.text}{" "}
            <a href={props.footer.link.href} style="color:#5f6368">
              {props.footer.link.label}
            </a>
          </p>
        ) : null}
      </body>
    </html>
  );
}
