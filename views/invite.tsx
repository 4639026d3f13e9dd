// /invite/<token>: accept an invitation. The page is the same whether or not the address has an account (it must
// not tell a link holder who has one): signed in as the address, join; signed out, one password field that is
// the account's password if there is one, else the new account's.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError } from "./parts.tsx";

export interface InvitationView {
  org: { id: string; name: string };
  email: string;
  role: string;
}

export function InvitePage(props: {
  f: Frame;
  token: string;
  inv: InvitationView;
  /** The signed-in person's email, when someone is signed in. */
  signedInAs: string | null;
  errors?: FieldErrors;
}) {
  const { inv } = props;
  const action = `/invite/${props.token}`;
  const mine = props.signedInAs === inv.email;
  return (
    <Layout f={props.f}>
      <div class="narrow">
        <div class="card" id="invite-details">
          <p class="lead">
            You are invited to <strong id="invite-org">{inv.org.name}</strong> as <strong>{inv.role}</strong>.
          </p>
          <p>
            The invitation is for <strong>{inv.email}</strong>.
          </p>
        </div>
        <FormError errors={props.errors} shown={["password", "name"]} />
        {mine ? (
          <form method="post" action={action} class="card" id="invite-accept-form">
            <Csrf token={props.f.csrf} />
            <button type="submit" class="primary">
              Join {inv.org.name}
            </button>
          </form>
        ) : props.signedInAs ? (
          <div class="card" id="invite-signout">
            <p>
              You are signed in as {props.signedInAs}. This invitation is for {inv.email}: sign out, then open
              this link again.
            </p>
          </div>
        ) : (
          <form method="post" action={action} class="card" id="invite-accept-form">
            <Csrf token={props.f.csrf} />
            <Field
              name="password"
              label="Password"
              type="password"
              autocomplete="current-password"
              hint={`If ${inv.email} already has an account here, its password (or sign in first, then open this link again). If not, choose a password of at least 10 characters for the new account.`}
              errors={props.errors}
              required
            />
            <Field
              name="name"
              label="Your name, for a new account (optional)"
              autocomplete="name"
              errors={props.errors}
              maxlength={100}
            />
            <button type="submit" class="primary">
              Join {inv.org.name}
            </button>
            <p>
              <a href="/signin">Sign in</a>
            </p>
          </form>
        )}
      </div>
    </Layout>
  );
}

export function InviteDonePage(props: { f: Frame; org: string; created: boolean }) {
  return (
    <Layout f={props.f}>
      <div class="narrow card" id="invite-done">
        <p>
          You joined <strong>{props.org}</strong>.{" "}
          {props.created ? (
            <>
              Your account is ready: <a href="/signin">sign in</a>.
            </>
          ) : (
            <a href="/home">Go to the dashboard</a>
          )}
        </p>
      </div>
    </Layout>
  );
}
