// The client review link's page (no account): a brand's posts waiting for approval, each as every network will
// receive it (the composer's preview cards), with Approve and Reject (and a note) per post. Plain forms: it works
// without JavaScript. Everything shown is text; nothing a person typed is markup.
import { PreviewPanel } from "./composer.tsx";
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { whenIn } from "./parts.tsx";
import type { ChannelLabel, Shown } from "./publishing.tsx";
import { FieldProblems } from "./publishing.tsx";

export interface ReviewPost {
  id: string;
  created_at: string;
  publish_at: string | null;
  next_slot?: string | null | undefined;
  media: ReviewMedia[];
  decidable: boolean;
  renditions: {
    channel: string;
    provider: string;
    parts: string[];
    lengths: number[];
    limit: number | null;
    counting: string;
    violations: { code: string; message: string; part: number | null }[];
    notices: { code: string; message: string }[];
  }[];
}

export interface ReviewMedia {
  id: string;
  kind: "image" | "video";
  alt: string | null;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
}

export interface ReviewPageProps {
  f: Frame;
  token: string;
  form: string;
  link: { name: string; expires_at: string };
  org: { name: string; status: string };
  brand: { name: string; timezone: string };
  livemode: boolean;
  more: boolean;
  channels: ChannelLabel[];
  posts: ReviewPost[];
  /** The outcome of the decision just taken (after its redirect), by post. */
  done?: { post: string; decision: "approved" | "rejected" } | null;
  problems?: Record<string, Shown[]> | undefined;
  notes?: Record<string, string>;
}

function when(p: ReviewPost, tz: string): string {
  if (p.publish_at) return `Goes out at ${whenIn(p.publish_at, tz)} if approved.`;
  if (p.next_slot) return `If approved, it goes out in the next free slot: ${whenIn(p.next_slot, tz)}.`;
  if (p.next_slot === null)
    return "If approved, it takes the next free slot (none is free in the next 56 days).";
  return "Goes out as soon as it is approved.";
}

export function ReviewLinkPage(props: ReviewPageProps) {
  const { f, brand } = props;
  const base = `/review/${props.token}`;
  const writable = props.org.status === "active";
  return (
    <Layout f={f}>
      <div class="review-page" id="review">
        <p class="lead" id="review-intro">
          <strong>{props.org.name}</strong> asks you to review posts for <strong>{brand.name}</strong>.
          Approve each one, or reject it with a note saying what to change. This link was shared with{" "}
          <strong>{props.link.name}</strong> and works until {whenIn(props.link.expires_at, brand.timezone)}.
        </p>
        {props.livemode ? null : (
          <p class="alert warn" id="review-test-mode">
            Test mode: these posts go to sandbox channels only.
          </p>
        )}
        {writable ? null : (
          <p class="alert warn" id="review-read-only">
            Decisions are paused for now: you can read the posts but not approve or reject them.
          </p>
        )}
        {props.done ? (
          <p class="alert ok" role="status" id="flash">
            {props.done.decision === "approved"
              ? "Approved. Thank you."
              : "Rejected: your note went to the team."}
          </p>
        ) : null}
        <Elsewhere posts={props.posts} problems={props.problems} />
        {props.posts.length === 0 ? (
          <div class="empty" id="review-empty">
            <p>Nothing waits for your review right now.</p>
          </div>
        ) : (
          <ol class="review-posts plain" id="review-posts">
            {props.posts.map((p, i) => (
              <li class="card review-post" id={`review-${p.id}`}>
                <h2>
                  Post {i + 1} of {props.posts.length}
                </h2>
                <p class="muted slot" id={`review-when-${p.id}`}>
                  {when(p, brand.timezone)}
                  {p.media.length > 0
                    ? ` With ${p.media.length} attached ${p.media.length === 1 ? "file" : "files"}.`
                    : ""}
                </p>
                {p.media.length > 0 ? <Attached base={base} post={p.id} media={p.media} /> : null}
                <PreviewPanel
                  preview={{ kind: "ok", valid: true, channels: p.renditions }}
                  channels={props.channels}
                />
                <FieldProblems id={`review-${p.id}-error`} problems={props.problems?.[p.id]} />
                {p.decidable ? (
                  <div class="review">
                    <form method="post" action={`${base}/posts/${p.id}/approve`} class="inline">
                      <input type="hidden" name="_form" value={props.form} />
                      <button type="submit" class="primary" disabled={!writable}>
                        Approve
                      </button>
                    </form>
                    <form method="post" action={`${base}/posts/${p.id}/reject`} class="reject">
                      <input type="hidden" name="_form" value={props.form} />
                      <label for={`note-${p.id}`}>What should change? (optional)</label>
                      <input
                        id={`note-${p.id}`}
                        name="note"
                        type="text"
                        maxlength={500}
                        value={props.notes?.[p.id] ?? ""}
                      />
                      <button type="submit" class="danger" disabled={!writable}>
                        Reject
                      </button>
                    </form>
                  </div>
                ) : (
                  <p class="muted" id={`review-${p.id}-theirs`}>
                    Written by the person who shared this link: someone else on their team reviews it.
                  </p>
                )}
              </li>
            ))}
          </ol>
        )}
        {props.more ? (
          <p class="muted" id="review-more">
            More posts wait: the oldest 100 are shown. Reload after deciding these to see the rest.
          </p>
        ) : null}
      </div>
    </Layout>
  );
}

/**
 * The post's files as the client will see them: each image as its thumbnail, each video as its first frame (the
 * browser reads only the video's index and first frame: preload="metadata"), with the alt text given. Served by the
 * link's own routes, which show only its pending posts' files.
 */
function Attached(props: { base: string; post: string; media: ReviewMedia[] }) {
  return (
    <ul class="review-media plain" id={`review-media-${props.post}`}>
      {props.media.map((m) => (
        <li class="review-medium" id={`review-medium-${props.post}-${m.id}`}>
          {m.kind === "image" ? (
            <img
              class="review-thumb"
              src={`${props.base}/media/${m.id}/thumb`}
              alt={m.alt ?? "An attached image (no description given)"}
              loading="lazy"
            />
          ) : (
            <video
              class="review-thumb"
              src={`${props.base}/media/${m.id}/video`}
              preload="metadata"
              muted
              playsinline
              controls
              aria-label={m.alt ?? "An attached video (no description given)"}
            />
          )}
          {m.kind === "video" && m.duration_ms !== null ? (
            <span class="muted review-medium-note">Video, {(m.duration_ms / 1000).toFixed(1)} s</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** A refusal about a post no longer on the page (decided meanwhile, by someone else or in another tab). */
function Elsewhere(props: { posts: ReviewPost[]; problems?: Record<string, Shown[]> | undefined }) {
  const shown = new Set(props.posts.map((p) => p.id));
  const rest = Object.entries(props.problems ?? {}).filter(([id]) => !shown.has(id));
  if (rest.length === 0) return null;
  return (
    <div class="alert error" role="alert" id="review-error">
      {rest.flatMap(([, problems]) =>
        problems.map((p) => (
          <p>
            {p.message} <code class="code">{p.code}</code>
          </p>
        )),
      )}
    </div>
  );
}

/** A link that does not work (unknown, changed, withdrawn, expired), or an org that is closed. */
export function ReviewLinkInvalidPage(props: { f: Frame; message: string }) {
  return (
    <Layout f={props.f}>
      <div class="card narrow" id="review-invalid">
        <p>{props.message}</p>
      </div>
    </Layout>
  );
}
