// Approvals: the posts waiting for approval in this mode, with the brand, the slot approving would take (the
// brand's next free slot, in its zone) or the post's own time, and Approve / Reject with a note. Only members who
// may approve (admins and owners) see the buttons; a refusal (slots_full, post_not_pending) shows on its card.
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { brandLabel, Csrf, when, whenIn } from "./parts.tsx";
import { type ChannelLabel, canChange, FieldProblems, NetworkTag, type Problems } from "./publishing.tsx";

export interface Waiting {
  id: string;
  brand: { id: string; name: string; slug: string; timezone: string; next_slot: string | null };
  text: string;
  channels: string[];
  /** Its own time, when it was given one; null when approving takes the next free slot. */
  publish_at: string | null;
  created_at: string;
  /** Written by the person looking: another admin or owner reviews it. */
  mine: boolean;
}

export interface ApprovalsProps {
  f: Frame;
  waiting: Waiting[];
  channels: ChannelLabel[];
  mayApprove: boolean;
  problems?: Problems | undefined;
  /** The notes typed, kept when a review is refused. */
  notes?: Record<string, string>;
}

export function ApprovalsPage(props: ApprovalsProps) {
  const { f } = props;
  const writable = canChange(f);
  const byId = new Map(props.channels.map((c) => [c.id, c]));
  return (
    <Layout f={f}>
      {props.mayApprove ? null : (
        <p class="alert warn" id="approvals-readonly">
          Admins and owners approve posts; you can see what waits.
        </p>
      )}
      {props.waiting.length === 0 ? (
        <div class="empty" id="approvals-empty">
          <p>
            Nothing waits for approval in {f.livemode ? "live" : "test"} mode. A post waits here when its
            brand's approval policy or its template asks for a review.
          </p>
        </div>
      ) : (
        <ul class="targets" id="approvals">
          {props.waiting.map((p) => {
            const problems = props.problems?.[p.id];
            return (
              <li class="target target-held" id={`approval-${p.id}`}>
                <div class="target-head">
                  <strong>{brandLabel(p.brand)}</strong>
                  <span class="muted">asked {when(p.created_at)}</span>
                </div>
                <p class="part-text">
                  <a href={`/posts/${p.id}`} class="post-text">
                    {p.text || "(media only)"}
                  </a>
                </p>
                <ul class="plain chan-list">
                  {p.channels.map((id) => {
                    const c = byId.get(id);
                    return c ? (
                      <li>
                        {c.display_name ?? c.handle ?? c.id} <NetworkTag c={c} />
                      </li>
                    ) : null;
                  })}
                </ul>
                <p class="slot" id={`slot-${p.id}`}>
                  {p.publish_at
                    ? `Goes out at ${whenIn(p.publish_at, p.brand.timezone)}`
                    : p.brand.next_slot
                      ? `Approving takes the next free slot: ${whenIn(p.brand.next_slot, p.brand.timezone)}`
                      : "Approving takes the next free slot: none is free in the next 56 days."}
                </p>
                <FieldProblems id={`approval-${p.id}-error`} problems={problems} />
                {props.mayApprove && p.mine ? (
                  <p class="muted" id={`approval-${p.id}-mine`}>
                    You asked for this one: another admin or owner reviews it.
                  </p>
                ) : null}
                {props.mayApprove && !p.mine ? (
                  <div class="review">
                    <form method="post" action={`/approvals/${p.id}/approve`} class="inline">
                      <Csrf token={f.csrf} />
                      <button type="submit" class="primary" disabled={!writable}>
                        Approve
                      </button>
                    </form>
                    <form method="post" action={`/approvals/${p.id}/reject`} class="reject">
                      <Csrf token={f.csrf} />
                      <label for={`note-${p.id}`}>Note for the author (optional)</label>
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
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </Layout>
  );
}
