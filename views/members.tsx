// Members: the org's people and their roles, open invitations, and inviting someone. Changing roles and removing
// people needs an admin; owner changes need an owner who confirmed their password in the last 10 minutes.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError, Section, when } from "./parts.tsx";

export interface MemberRow {
  id: string;
  email: string;
  name: string | null;
  role: string;
  joined_at: string;
}
export interface InvitationRow {
  id: string;
  email: string;
  role: string;
  expires_at: string;
  emailed: boolean;
}

const ROLES = ["viewer", "editor", "admin", "owner"] as const;

function RoleSelect(props: { id: string; value: string; label: string; visible?: boolean }) {
  return (
    <>
      <label for={props.id} class={props.visible ? undefined : "visually-hidden"}>
        {props.label}
      </label>
      <select id={props.id} name="role">
        {ROLES.map((r) => (
          <option value={r} selected={r === props.value}>
            {r}
          </option>
        ))}
      </select>
    </>
  );
}

export function MembersPage(props: {
  f: Frame;
  members: MemberRow[];
  invitations: InvitationRow[] | null;
  canManage: boolean;
  /** An owner without a recent password confirmation: offer it, for owner changes. */
  offerConfirm: boolean;
  created?: { url: string; email: string; emailed: boolean } | undefined;
  errors?: FieldErrors | undefined;
  invite?: { email: string; role: string } | undefined;
}) {
  const f = props.f;
  return (
    <Layout f={f}>
      <FormError errors={props.errors} shown={["email", "role", "password"]} />
      {props.created ? (
        <div class="alert ok" role="status" id="invite-created">
          <p>
            {props.created.emailed
              ? `The invitation was emailed to ${props.created.email}.`
              : `Send this link to ${props.created.email}; it is shown only now and works once, for a week.`}
          </p>
          <p class="secret" id="invite-url">
            {props.created.url}
          </p>
        </div>
      ) : null}
      {props.offerConfirm ? (
        <form method="post" action="/members/confirm" class="card inline-card" id="members-confirm">
          <Csrf token={f.csrf} />
          <p>Making, changing or removing an owner needs your password (it counts for 10 minutes).</p>
          <Field
            name="password"
            label="Your password"
            type="password"
            autocomplete="current-password"
            errors={props.errors}
            required
          />
          <button type="submit">Confirm</button>
        </form>
      ) : null}
      <Section title="People">
        <div class="table-wrap">
          <table id="members">
            <thead>
              <tr>
                <th scope="col">Person</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                {props.canManage ? (
                  <th scope="col">
                    <span class="muted">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {props.members.map((m) => (
                <tr id={`member-${m.id}`}>
                  <td>
                    {m.name ? (
                      <>
                        {m.name} <span class="muted">{m.email}</span>
                      </>
                    ) : (
                      m.email
                    )}
                  </td>
                  <td>{m.role}</td>
                  <td class="when">{when(m.joined_at)}</td>
                  {props.canManage ? (
                    <td>
                      <form method="post" action={`/members/${m.id}/role`} class="inline">
                        <Csrf token={f.csrf} />
                        <RoleSelect id={`role-${m.id}`} value={m.role} label={`Role of ${m.email}`} />
                        <button type="submit">Change</button>
                      </form>
                      <form
                        method="post"
                        action={`/members/${m.id}/remove`}
                        class="inline"
                        data-confirm={`Remove ${m.email} from ${f.org?.name ?? "the org"}?`}
                      >
                        <Csrf token={f.csrf} />
                        <button type="submit" class="danger" aria-label={`Remove ${m.email}`}>
                          Remove
                        </button>
                      </form>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>
      {props.canManage ? (
        <>
          <Section title="Invite someone">
            <form method="post" action="/members/invite" class="card" id="invite-form">
              <Csrf token={f.csrf} />
              <Field
                name="email"
                label="Email"
                type="email"
                value={props.invite?.email}
                errors={props.errors}
                required
              />
              <div class="field">
                <RoleSelect id="f-role" value={props.invite?.role ?? "editor"} label="Role" visible />
              </div>
              {f.mail ? (
                <label>
                  <input type="checkbox" name="send_email" value="true" checked /> Email the invitation
                </label>
              ) : (
                <p class="hint">Email is off on this server: you will get a link to pass on.</p>
              )}
              <button type="submit" class="primary">
                Invite
              </button>
            </form>
          </Section>
          <Section title="Open invitations">
            {props.invitations && props.invitations.length ? (
              <div class="table-wrap">
                <table id="invitations">
                  <thead>
                    <tr>
                      <th scope="col">Email</th>
                      <th scope="col">Role</th>
                      <th scope="col">Valid until</th>
                      <th scope="col">
                        <span class="muted">Action</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {props.invitations.map((i) => (
                      <tr id={`inv-${i.id}`}>
                        <td>{i.email}</td>
                        <td>{i.role}</td>
                        <td class="when">{when(i.expires_at)}</td>
                        <td>
                          <form method="post" action={`/members/invitations/${i.id}/revoke`} class="inline">
                            <Csrf token={f.csrf} />
                            <button
                              type="submit"
                              class="danger"
                              aria-label={`Withdraw the invitation of ${i.email}`}
                            >
                              Withdraw
                            </button>
                          </form>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p id="no-invitations">No open invitations.</p>
            )}
          </Section>
        </>
      ) : null}
    </Layout>
  );
}
