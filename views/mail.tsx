// An email's HTML part: paragraphs of plain text and an optional link, auto-escaped like every page, inline
// styles only (mail clients drop style sheets).
export interface MailLink {
  href: string;
  label: string;
}

export function MailBody(props: { paragraphs: string[]; link?: MailLink | undefined }) {
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
      </body>
    </html>
  );
}
