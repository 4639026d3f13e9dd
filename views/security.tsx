// Security: the authenticator app (TOTP, with a QR code), recovery codes and passkeys. Changes need sudo mode.

import { ConfirmPassword } from "./confirm.tsx";
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError, Section, when } from "./parts.tsx";

export interface PasskeyRow {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface SecurityProps {
  f: Frame;
  sudo: boolean;
  enrolling: boolean;
  totp: boolean;
  recoveryCodesLeft: number;
  pending: { secret: string; qr: string } | null;
  codes: string[] | null;
  passkeys: PasskeyRow[];
  errors?: FieldErrors | undefined;
}

/** A base32 secret in groups of four (ABCD EFGH …), as authenticator apps show and accept it: 32 letters in one
 * run are easy to mistype. */
export const groupsOfFour = (secret: string) => secret.replace(/(.{4})(?=.)/g, "$1 ");

function Totp(props: SecurityProps) {
  if (props.totp)
    return (
      <div>
        <p>
          <strong>On.</strong> Sign-in asks for a code from your app.
        </p>
        {props.sudo ? (
          <form method="post" action="/account/security/totp/disable">
            <Csrf token={props.f.csrf} />
            <button type="submit" class="danger">
              Turn off the authenticator app
            </button>
          </form>
        ) : null}
      </div>
    );
  if (props.pending)
    return (
      <div class="card" id="totp-enrol">
        <p>Scan this code with your authenticator app, then type the 6 digits it shows.</p>
        <img class="qr" src={props.pending.qr} alt="QR code holding your authenticator app's secret" />
        <p>
          Or type this secret into the app (the spaces only help reading; apps accept it with or without
          them): <code id="totp-secret">{groupsOfFour(props.pending.secret)}</code>
        </p>
        <form method="post" action="/account/security/totp/confirm">
          <Csrf token={props.f.csrf} />
          <Field
            name="code"
            label="Code from the app"
            errors={props.errors}
            autocomplete="one-time-code"
            inputmode="numeric"
            maxlength={6}
            required
          />
          <button type="submit" class="primary">
            Turn on
          </button>
        </form>
        <form method="post" action="/account/security/totp/cancel" id="totp-cancel">
          <Csrf token={props.f.csrf} />
          <button type="submit">Cancel setting up</button>
        </form>
      </div>
    );
  return (
    <div>
      <p>Off.</p>
      {props.sudo ? (
        <form method="post" action="/account/security/totp/start">
          <Csrf token={props.f.csrf} />
          <button type="submit" class="primary" id="totp-start">
            Set up an authenticator app
          </button>
        </form>
      ) : null}
    </div>
  );
}

function Passkeys(props: SecurityProps) {
  return (
    <div>
      {props.passkeys.length === 0 ? <p>No passkeys yet.</p> : null}
      {props.passkeys.length ? (
        <section class="table-wrap" tabindex={0} aria-label="Passkeys (scrolls sideways)">
          <table id="passkeys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Added</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="muted">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {props.passkeys.map((p, i) => (
                <tr>
                  <td class="text">{p.name}</td>
                  <td>{when(p.created_at)}</td>
                  <td>{when(p.last_used_at)}</td>
                  <td>
                    <form method="post" action={`/account/security/passkeys/${p.id}/rename`} class="inline">
                      <Csrf token={props.f.csrf} />
                      <label for={`rename-${i}`} class="muted">
                        New name
                      </label>
                      <input
                        id={`rename-${i}`}
                        name="name"
                        type="text"
                        value={p.name}
                        maxlength={100}
                        required
                      />
                      <button type="submit">Rename</button>
                    </form>
                    {props.sudo ? (
                      <form method="post" action={`/account/security/passkeys/${p.id}/remove`} class="inline">
                        <Csrf token={props.f.csrf} />
                        <button type="submit" class="danger" aria-label={`Remove passkey ${p.name}`}>
                          Remove
                        </button>
                      </form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {props.sudo ? (
        <div class="card">
          <div class="field">
            <label for="passkey-name">Name for a new passkey</label>
            <input id="passkey-name" type="text" maxlength={100} placeholder="Laptop" />
          </div>
          <button type="button" id="passkey-add">
            Add a passkey
          </button>
          <p class="error" id="passkey-add-error" role="alert" aria-live="assertive" />
        </div>
      ) : null}
    </div>
  );
}

export function SecurityPage(props: SecurityProps) {
  return (
    <Layout f={props.f} scripts={["/static/webauthn.js", "/static/passkeys.js"]}>
      {props.enrolling ? (
        <div class="alert warn" role="status">
          <p>
            An org you belong to requires two-factor sign-in. Set up an authenticator app or a passkey to go
            on.
          </p>
        </div>
      ) : null}
      <FormError errors={props.errors} shown={["code", "password"]} />
      {props.codes ? (
        <div class="card" id="recovery-codes">
          <h2>Your recovery codes</h2>
          <p>
            <strong>Save these now; they are not shown again.</strong> Each signs you in once if you lose your
            app or passkeys.
          </p>
          <ul class="codes">
            {props.codes.map((c) => (
              <li>{c}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {props.sudo ? null : (
        <ConfirmPassword
          csrf={props.f.csrf}
          back="/account/security"
          errors={props.errors}
          why="Changing two-factor settings needs a recent password confirmation."
        />
      )}
      <Section title="Authenticator app">
        <Totp {...props} />
      </Section>
      <Section title="Recovery codes">
        {props.totp || props.passkeys.length > 0 ? (
          <p>
            {props.recoveryCodesLeft} unused recovery code{props.recoveryCodesLeft === 1 ? "" : "s"}.
          </p>
        ) : (
          <p>
            Recovery codes come with a second factor: turn on the authenticator app or add a passkey first.
          </p>
        )}
        {props.sudo && (props.totp || props.passkeys.length > 0) ? (
          <form method="post" action="/account/security/recovery">
            <Csrf token={props.f.csrf} />
            <button type="submit">Make new recovery codes</button>
          </form>
        ) : null}
      </Section>
      <Section title="Passkeys">
        <Passkeys {...props} />
      </Section>
      {props.enrolling ? null : (
        <Section title="Password">
          <p>
            <a href="/account/password">Change password</a>
          </p>
        </Section>
      )}
      {props.enrolling ? (
        <form method="post" action="/signout" class="inline">
          <Csrf token={props.f.csrf} />
          <button type="submit" class="link">
            Sign out
          </button>
        </form>
      ) : null}
    </Layout>
  );
}
