// /invite/<token>: accept an invitation. The page never tells whether the address has an account (a link holder
// must not learn it). Signed in as the invited address: join. Not signed in: one password field, the account's
// password if the address has one (a counted sign-in guess), or have a link mailed to the address to make one.
// /invite/<token>/p/<proof> (the mailed link; an operator's invitation too): one password field, the account's
// password if there is one, else the new account's.
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

/** The address is proven: the same form whether or not it has an account. */
function PasswordForm(props: { f: Frame; action: string; inv: InvitationView; errors?: FieldErrors }) {
  const { inv } = props;
  return (
    <form method="post" action={props.action} class="card" id="invite-accept-form">
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
  );
}

/** The address is not proven: an account's own password joins it; a new account needs the mailed link. */
function ProveForms(props: { f: Frame; base: string; inv: InvitationView; errors?: FieldErrors }) {
  const { inv } = props;
  return (
    <>
      <form method="post" action={props.base} class="card" id="invite-accept-form">
        <Csrf token={props.f.csrf} />
        <Field
          name="password"
          label="Password"
          type="password"
          autocomplete="current-password"
          hint={`If ${inv.email} already has an account here, its password (or sign in first, then open this link again).`}
          errors={props.errors}
          required
        />
        <button type="submit" class="primary">
          Join {inv.org.name}
        </button>
        <p>
          <a href="/signin">Sign in</a>
        </p>
      </form>
      {props.f.mail ? null : (
        <div class="card" id="invite-mail-off">
          <p>
            New here? Joining needs a link mailed to {inv.email} to confirm the address is yours, and email is
            off on this server. Ask whoever invited you to have the server's operator add you (
            <code>svc admin members add</code>).
          </p>
        </div>
      )}
      <form
        method="post"
        action={`${props.base}/confirm`}
        class="card"
        id="invite-prove-form"
        hidden={!props.f.mail}
      >
        <Csrf token={props.f.csrf} />
        <p>
          New here? We email {inv.email} a link to confirm the address is yours; from it you choose a password
          and join.
        </p>
        <button type="submit" class="primary">
          Email me the link
        </button>
      </form>
    </>
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
        ) : inv.step === "prove" ? (
          <ProveForms f={props.f} base={base} inv={inv} {...(props.errors ? { errors: props.errors } : {})} />
        ) : (
          <PasswordForm
            f={props.f}
            action={action}
            inv={inv}
            {...(props.errors ? { errors: props.errors } : {})}
          />
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
