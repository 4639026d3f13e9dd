// /invite/<token>: accept an invitation. With no account for the address, choose a password; with one, sign in
// as it first, then accept.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError } from "./parts.tsx";

export interface InvitationView {
  org: { id: string; name: string };
  email: string;
  role: string;
  account_exists: boolean;
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
        {inv.account_exists ? (
          mine ? (
            <form method="post" action={action} class="card" id="invite-accept-form">
              <Csrf token={props.f.csrf} />
              <button type="submit" class="primary">
                Join {inv.org.name}
              </button>
            </form>
          ) : (
            <div class="card" id="invite-signin">
              <p>
                {props.signedInAs
                  ? `You are signed in as ${props.signedInAs}. Sign out, then sign in as ${inv.email} and open this link again.`
                  : `${inv.email} already has an account: sign in, then open this link again.`}
              </p>
              {props.signedInAs ? null : (
                <p>
                  <a href="/signin">Sign in</a>
                </p>
              )}
            </div>
          )
        ) : props.signedInAs ? (
          <div class="card" id="invite-signout">
            <p>
              You are signed in as {props.signedInAs}. To join with a new account for {inv.email}, sign out
              and open this link again.
            </p>
          </div>
        ) : (
          <form method="post" action={action} class="card" id="invite-accept-form">
            <Csrf token={props.f.csrf} />
            <Field
              name="name"
              label="Your name (optional)"
              autocomplete="name"
              errors={props.errors}
              maxlength={100}
            />
            <Field
              name="password"
              label="Choose a password"
              type="password"
              autocomplete="new-password"
              hint="At least 10 characters."
              errors={props.errors}
              required
            />
            <button type="submit" class="primary">
              Create the account and join
            </button>
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
