// /invite/<token>: accept an invitation. Signed in as the invited address: join. Not signed in: sign in if the
// address has an account, or have a link mailed to the address to make one; the page says the same for every
// address. /invite/<token>/p/<proof> (the mailed link): choose a password (no account yet) or sign in.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError } from "./parts.tsx";

export interface InvitationView {
  org: { id: string; name: string };
  email: string;
  role: string;
  step: "join" | "other_account" | "prove" | "sign_in" | "create";
  signed_in_as: string | null;
}

function CreateForm(props: { f: Frame; action: string; org: string; errors?: FieldErrors }) {
  return (
    <form method="post" action={props.action} class="card" id="invite-accept-form">
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
        Create the account and join {props.org}
      </button>
    </form>
  );
}

export function InvitePage(props: {
  f: Frame;
  token: string;
  /** The mailed proof, when the page was opened from the mail. */
  proof: string | null;
  inv: InvitationView;
  errors?: FieldErrors;
}) {
  const { inv } = props;
  const base = `/invite/${props.token}`;
  const action = props.proof ? `${base}/p/${props.proof}` : base;
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
        {inv.step === "join" ? (
          <form method="post" action={base} class="card" id="invite-accept-form">
            <Csrf token={props.f.csrf} />
            <button type="submit" class="primary">
              Join {inv.org.name}
            </button>
          </form>
        ) : inv.step === "other_account" ? (
          <div class="card" id="invite-signout">
            <p>
              You are signed in as {inv.signed_in_as}. This invitation is for {inv.email}: sign out, then open
              this link again.
            </p>
          </div>
        ) : inv.step === "create" ? (
          <CreateForm f={props.f} action={action} org={inv.org.name} errors={props.errors} />
        ) : inv.step === "sign_in" ? (
          <div class="card" id="invite-signin">
            <p>{inv.email} has an account: sign in as it, then open the invitation link again to join.</p>
            <p>
              <a href="/signin">Sign in</a>
            </p>
          </div>
        ) : (
          <>
            <div class="card" id="invite-signin">
              <p>
                If you have an account with {inv.email}, <a href="/signin">sign in</a>, then open this link
                again to join.
              </p>
            </div>
            {props.f.mail ? null : (
              <div class="card" id="invite-mail-off">
                <p>
                  New here? Joining needs a link mailed to {inv.email} to confirm the address is yours, and
                  email is off on this server. Ask whoever invited you to have the server's operator add you (
                  <code>svc admin members add</code>).
                </p>
              </div>
            )}
            <form
              method="post"
              action={`${base}/confirm`}
              class="card"
              id="invite-prove-form"
              hidden={!props.f.mail}
            >
              <Csrf token={props.f.csrf} />
              <p>
                New here? We email {inv.email} a link to confirm the address is yours; from it you choose a
                password and join.
              </p>
              <button type="submit" class="primary">
                Email me the link
              </button>
            </form>
          </>
        )}
      </div>
    </Layout>
  );
}

export function InviteSentPage(props: { f: Frame; email: string }) {
  return (
    <Layout f={props.f}>
      <div class="narrow card" id="invite-sent">
        <p>
          We sent a link to <strong>{props.email}</strong>. Open it from that mailbox to go on. It may take a
          minute; look in the spam folder too.
        </p>
      </div>
    </Layout>
  );
}
