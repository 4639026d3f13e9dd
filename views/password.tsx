// Change password: the current one and the new one twice. Each problem is shown beside its field.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError } from "./parts.tsx";

export function PasswordPage(props: { f: Frame; errors?: FieldErrors | undefined }) {
  return (
    <Layout f={props.f}>
      <p>
        Changing your password signs out every other browser and every CLI signed in as you.
        {props.f.mail
          ? " We email you that it changed."
          : " Email is off on this server, so no notice is sent: this page is the only place it shows."}
      </p>
      <FormError errors={props.errors} shown={["current_password", "password", "password_confirm"]} />
      <form method="post" action="/account/password">
        <Csrf token={props.f.csrf} />
        <Field
          name="current_password"
          label="Current password"
          type="password"
          autocomplete="current-password"
          required
          errors={props.errors}
        />
        <Field
          name="password"
          label="New password"
          type="password"
          autocomplete="new-password"
          hint="At least 10 characters."
          required
          errors={props.errors}
        />
        <Field
          name="password_confirm"
          label="New password again"
          type="password"
          autocomplete="new-password"
          required
          errors={props.errors}
        />
        <button type="submit">Change password</button>
      </form>
    </Layout>
  );
}
