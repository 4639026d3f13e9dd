// /reset: ask for a reset link by email; /reset/<token>: choose a new password (the link works once, 30 minutes).
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError } from "./parts.tsx";

export function ResetRequestPage(props: { f: Frame; sent?: boolean; email?: string; errors?: FieldErrors }) {
  return (
    <Layout f={props.f}>
      <div class="narrow">
        {props.sent ? (
          <div class="alert ok" role="status" id="reset-sent">
            If an account has this address, a reset link valid for 30 minutes is on its way.
          </div>
        ) : null}
        {props.f.mail ? null : (
          <div class="alert warn" role="status" id="reset-mail-off">
            <p>
              <strong>Email is off on this server</strong>, so no reset link can be sent. Ask the server's
              operator to set a new password for you (<code>svc admin users reset-password</code>).
            </p>
          </div>
        )}
        <form method="post" action="/reset" class="card" id="reset-request-form" hidden={!props.f.mail}>
          <Csrf token={props.f.csrf} />
          <FormError errors={props.errors} shown={["email"]} />
          <Field
            name="email"
            label="Email"
            type="email"
            value={props.email}
            autocomplete="username"
            errors={props.errors}
            required
          />
          <button type="submit" class="primary">
            Email me a reset link
          </button>
        </form>
      </div>
    </Layout>
  );
}

export interface PasskeyChoice {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** Each passkey with a box to keep it; none is ticked: a passkey stays only when the person says it is theirs. */
export function KeepPasskeys(props: { passkeys: PasskeyChoice[]; kept?: string[] }) {
  if (!props.passkeys.length) return null;
  return (
    <fieldset id="keep-passkeys">
      <legend>Passkeys</legend>
      <p class="hint">
        A passkey signs in to this account without the password. Tick the passkeys that are yours; every other
        one is removed.
      </p>
      {props.passkeys.map((p) => (
        <label>
          <input
            type="checkbox"
            name="keep_passkey"
            value={p.id}
            checked={props.kept?.includes(p.id) ?? false}
            id={`keep-${p.id}`}
          />{" "}
          Keep <strong>{p.name}</strong> (added {p.created_at.slice(0, 10)}
          {p.last_used_at ? `, last used ${p.last_used_at.slice(0, 10)}` : ", never used"})
        </label>
      ))}
    </fieldset>
  );
}

export function ResetPasswordPage(props: {
  f: Frame;
  token: string;
  email: string;
  passkeys: PasskeyChoice[];
  kept?: string[];
  errors?: FieldErrors;
}) {
  return (
    <Layout f={props.f}>
      <div class="narrow">
        <form method="post" action={`/reset/${props.token}`} class="card" id="reset-form">
          <Csrf token={props.f.csrf} />
          <FormError errors={props.errors} shown={["password"]} />
          <p>
            A new password for <strong>{props.email}</strong>. Every browser and command-line sign-in of this
            account will be signed out.
          </p>
          <input type="hidden" name="username" value={props.email} autocomplete="username" />
          <Field
            name="password"
            label="New password"
            type="password"
            autocomplete="new-password"
            hint="At least 10 characters."
            errors={props.errors}
            required
          />
          <KeepPasskeys passkeys={props.passkeys} kept={props.kept} />
          <button type="submit" class="primary">
            Set the password
          </button>
        </form>
      </div>
    </Layout>
  );
}

export function ResetInvalidPage(props: { f: Frame; message: string }) {
  return (
    <Layout f={props.f}>
      <div class="narrow card" id="reset-invalid">
        <p class="error">{props.message}</p>
        <p>
          <a href="/reset">Ask for a new link</a>
        </p>
      </div>
    </Layout>
  );
}
