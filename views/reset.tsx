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
        <form method="post" action="/reset" class="card" id="reset-request-form">
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

export function ResetPasswordPage(props: { f: Frame; token: string; email: string; errors?: FieldErrors }) {
  return (
    <Layout f={props.f}>
      <div class="narrow">
        <form method="post" action={`/reset/${props.token}`} class="card" id="reset-form">
          <Csrf token={props.f.csrf} />
          <FormError errors={props.errors} shown={["password"]} />
          <p>
            A new password for <strong>{props.email}</strong>. Every command-line sign-in of this account will
            be signed out.
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
