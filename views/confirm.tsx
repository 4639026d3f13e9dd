// Sudo mode's password confirmation, shown on a page whose action needs it (reauthentication_required).
import type { FieldErrors } from "./frame.ts";
import { Csrf, Field } from "./parts.tsx";

export function ConfirmPassword(props: {
  csrf: string;
  back: string;
  errors?: FieldErrors | undefined;
  why: string;
}) {
  return (
    <form method="post" action="/account/confirm" class="card" id="confirm-form">
      <h2>Confirm your password</h2>
      <p>{props.why} This lasts 10 minutes.</p>
      <Csrf token={props.csrf} />
      <input type="hidden" name="back" value={props.back} />
      <Field
        name="password"
        label="Your password"
        type="password"
        autocomplete="current-password"
        errors={props.errors}
        required
      />
      <button type="submit" class="primary">
        Confirm
      </button>
    </form>
  );
}
