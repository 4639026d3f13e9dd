// Sessions: every browser signed in as this person, with sign-out for each (htmx removes the row in place; the
// plain form works without script).

import { agentLabel } from "./agent.ts";
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { ActionTable, Csrf, Field, FormError, Section, when } from "./parts.tsx";
import { KeepPasskeys, type PasskeyChoice } from "./reset.tsx";

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

export function SessionsPage(props: {
  f: Frame;
  sessions: SessionRow[];
  passkeys: PasskeyChoice[];
  kept?: string[];
  sudo: boolean;
  errors?: FieldErrors;
}) {
  return (
    <Layout f={props.f}>
      <p>Browsers signed in as you. Signing one out ends it at its next request.</p>
      <ActionTable id="sessions" label="Sessions" columns={["Browser", "Address", "Signed in", "Last seen"]}>
        {props.sessions.map((s) => (
          <SessionRowView s={s} csrf={props.f.csrf} />
        ))}
      </ActionTable>
      <Section title="Sign out everywhere" id="everywhere">
        <form method="post" action="/account/sessions/everywhere" class="card" id="everywhere-form">
          <Csrf token={props.f.csrf} />
          <FormError errors={props.errors} shown={["password"]} />
          <p>
            Signs out every other browser and every command line signed in as you. Use it when you think
            someone else got in.
          </p>
          <KeepPasskeys passkeys={props.passkeys} kept={props.kept} />
          {props.sudo ? (
            <Field
              name="password"
              label="Your password"
              type="password"
              autocomplete="current-password"
              errors={props.errors}
              required
            />
          ) : null}
          <button type="submit" class="danger">
            Sign out everywhere else
          </button>
        </form>
      </Section>
    </Layout>
  );
}
