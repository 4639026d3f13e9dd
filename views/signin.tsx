// Sign-in: email and password, or a passkey (the button works once /static/passkeys.js has loaded).
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError } from "./parts.tsx";

export function SignInPage(props: {
  f: Frame;
  email?: string;
  errors?: FieldErrors;
  /** SVC_SIGNUP_URL: where people without an account create one. */
  signupUrl?: string | null;
  /** Password guesses are paused: the password signs in only together with a code (shown for any address). */
  paused?: boolean;
}) {
  return (
    <Layout f={props.f} scripts={["/static/webauthn.js", "/static/passkeys.js"]}>
      <div class="narrow">
        <form method="post" action="/signin" class="card" id="signin-form">
          <Csrf token={props.f.csrf} />
          <FormError errors={props.errors} shown={["email", "password"]} />
          <Field
            name="email"
            label="Email"
            type="email"
            value={props.email}
            errors={props.errors}
            autocomplete="username webauthn"
            required
          />
          <Field
            name="password"
            label="Password"
            type="password"
            errors={props.errors}
            autocomplete="current-password"
            required
          />
          {props.paused ? (
            <Field
              name="code"
              label="Code from your authenticator app, or a recovery code"
              errors={props.errors}
              autocomplete="one-time-code"
              inputmode="text"
              maxlength={20}
            />
          ) : null}
          <button type="submit" class="primary">
            Sign in
          </button>
          <p>
            <a href="/reset">Forgot your password?</a>
          </p>
        </form>
        <div class="card" id="sso-card">
          <a href="/signin/sso" class="button" id="sso-link">
            Continue with single sign-on
          </a>
        </div>
        <div class="card">
          <p>Or use a passkey saved on this device or a security key.</p>
          <button
            type="button"
            id="passkey-signin"
            data-options="/signin/passkey/options"
            data-verify="/signin/passkey"
            data-next="/home"
          >
            Sign in with a passkey
          </button>
          <p class="error" id="passkey-error" role="alert" aria-live="assertive" />
        </div>
        <p class="muted">
          <a href="/signin/break-glass" id="break-glass-link">
            Owner sign-in when single sign-on is out of order
          </a>
        </p>
        {props.signupUrl ? (
          <p class="card">
            No account yet?{" "}
            <a href={props.signupUrl} id="signup-link">
              Create an account
            </a>
          </p>
        ) : null}
      </div>
    </Layout>
  );
}

/** The second step when the person has two-factor: a code from the app, a recovery code, or a passkey. */
export function SecondFactorPage(props: {
  f: Frame;
  totp: boolean;
  passkeys: boolean;
  errors?: FieldErrors;
}) {
  return (
    <Layout f={props.f} scripts={["/static/webauthn.js", "/static/passkeys.js"]}>
      <div class="narrow">
        {props.totp ? (
          <form method="post" action="/signin/two-factor" class="card">
            <Csrf token={props.f.csrf} />
            <FormError errors={props.errors} shown={["code"]} />
            <Field
              name="code"
              label="Code from your authenticator app, or a recovery code"
              errors={props.errors}
              autocomplete="one-time-code"
              inputmode="text"
              maxlength={20}
              required
            />
            <button type="submit" class="primary">
              Continue
            </button>
          </form>
        ) : (
          <FormError errors={props.errors} />
        )}
        {props.passkeys ? (
          <div class="card">
            <button
              type="button"
              id="passkey-signin"
              data-options="/signin/passkey/options"
              data-verify="/signin/passkey"
              data-next="/home"
            >
              Use a passkey
            </button>
            <p class="error" id="passkey-error" role="alert" aria-live="assertive" />
          </div>
        ) : null}
        <form method="post" action="/signout" class="inline">
          <Csrf token={props.f.csrf} />
          <button type="submit" class="link">
            Cancel and sign out
          </button>
        </form>
      </div>
    </Layout>
  );
}
