// Sessions: every browser signed in as this person, with sign-out for each (htmx removes the row in place; the
// plain form works without script).

import { agentLabel } from "./agent.ts";
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { ActionTable, Csrf, when } from "./parts.tsx";

export interface SessionRow {
  id: string;
  current: boolean;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
}

export function SessionRowView(props: { s: SessionRow; csrf: string }) {
  const s = props.s;
  return (
    <tr id={`row-${s.id}`}>
      <td title={s.user_agent ?? undefined}>
        {agentLabel(s.user_agent)} {s.current ? <span class="tag">this browser</span> : null}
      </td>
      <td>{s.ip ?? "—"}</td>
      <td class="when">{when(s.created_at)}</td>
      <td class="when">{when(s.last_seen_at)}</td>
      <td>
        {s.current ? null : (
          <form
            method="post"
            action={`/account/sessions/${s.id}/revoke`}
            hx-post={`/account/sessions/${s.id}/revoke`}
            hx-target={`#row-${s.id}`}
            hx-swap="outerHTML"
          >
            <Csrf token={props.csrf} />
            <button
              type="submit"
              class="danger"
              aria-label={`Sign out the session started ${when(s.created_at)}`}
            >
              Sign out
            </button>
          </form>
        )}
      </td>
    </tr>
  );
}

export function SessionsPage(props: { f: Frame; sessions: SessionRow[] }) {
  return (
    <Layout f={props.f}>
      <p>Browsers signed in as you. Signing one out ends it at its next request.</p>
      <ActionTable id="sessions" label="Sessions" columns={["Browser", "Address", "Signed in", "Last seen"]}>
        {props.sessions.map((s) => (
          <SessionRowView s={s} csrf={props.f.csrf} />
        ))}
      </ActionTable>
    </Layout>
  );
}
