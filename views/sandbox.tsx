// The sandbox network's public "post page" (GET /sandbox/<target>): what a test-mode channel posted, part by
// part, with the images as the network received them and videos from a signed link. It runs no script.
import { whenIn } from "./parts.tsx";

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}p{white-space:pre-wrap;margin:0}
small,li{color:#666}img,video{max-width:100%;height:auto}figure{margin:.5rem 0}ul{margin:.5rem 0 0;padding-left:1.2rem}`;

export interface SandboxFigure {
  kind: "image" | "video";
  /** A data: URL for an image, a signed link to this install for a video. */
  src: string;
  alt: string;
  type: string;
  width: number | null;
  height: number | null;
  size: number;
}

export interface SandboxPart {
  anchor: string;
  label: string;
  attempt: number;
  at: string;
  text: string;
  figures: SandboxFigure[];
  /** The media the post named: type, ID and alt text. */
  media: { mime: string; id: string; alt: string | null }[];
}

/** A target's page: who it was posted as, in which brand's zone its times read, and what was posted. */
export interface SandboxPost {
  /** The channel it was posted to; null once the channel is deleted. */
  channel: { name: string; handle: string | null } | null;
  brand: { name: string; slug: string } | null;
  /** The brand's IANA zone (UTC once the channel is gone). */
  timeZone: string;
  /** The post in the dashboard, for the link back; null when the target is no longer there. */
  postId: string | null;
  parts: SandboxPart[];
}

function SandboxShell(props: { title: string; children: unknown }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="robots" content="noindex" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{props.title}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>{props.children}</body>
    </html>
  );
}

function Figure({ f }: { f: SandboxFigure }) {
  const caption = (
    <figcaption>
      <small>
        {f.type} · {f.width}×{f.height} · {f.size} bytes
      </small>
    </figcaption>
  );
  return (
    <figure>
      {f.kind === "image" ? (
        <img src={f.src} alt={f.alt} width={f.width ?? ""} height={f.height ?? ""} />
      ) : (
        // biome-ignore lint/a11y/useMediaCaption: the page shows a post as the network got it; no caption track was sent
        <video
          controls
          preload="metadata"
          src={f.src}
          width={f.width ?? ""}
          height={f.height ?? ""}
          aria-label={f.alt}
        />
      )}
      {caption}
    </figure>
  );
}

export function SandboxPostPage(props: { title: string; post: SandboxPost }) {
  const { channel, brand, timeZone, postId, parts } = props.post;
  return (
    <SandboxShell title={props.title}>
      <h1>Sandbox post</h1>
      <p>
        {channel ? (
          <>
            On <strong>{channel.name}</strong>
            {channel.handle ? ` (${channel.handle})` : ""}
          </>
        ) : (
          "On a channel since deleted"
        )}
        {brand ? (
          <>
            {" "}
            for the brand <strong>{brand.name}</strong> ({brand.slug})
          </>
        ) : null}
        . Times are in {timeZone}.
      </p>
      <small>Posted by a test-mode channel of svc; it reached no real network.</small>
      {/* Shown to everyone: the page stays public, and the dashboard asks whoever is not signed in to sign in. */}
      {postId ? (
        <p>
          <a href={`/posts/${postId}`}>Open this post in the dashboard</a>
        </p>
      ) : null}
      {parts.map((p) => (
        <article id={p.anchor}>
          <small>
            {p.label} · attempt {p.attempt} · <time datetime={p.at}>{whenIn(p.at, timeZone)}</time>
          </small>
          <p>{p.text}</p>
          {p.figures.map((f) => (
            <Figure f={f} />
          ))}
          {p.media.length ? (
            <ul>
              {p.media.map((m) => (
                <li>
                  {m.mime} {m.id}
                  {m.alt ? `: ${m.alt}` : ""}
                </li>
              ))}
            </ul>
          ) : null}
        </article>
      ))}
    </SandboxShell>
  );
}

export function SandboxNotice(props: { title: string; text: string }) {
  return (
    <SandboxShell title={props.title}>
      <h1>{props.title}</h1>
      <p>{props.text}</p>
    </SandboxShell>
  );
}
