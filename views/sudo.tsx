// The password field a form shows when its action needs sudo mode and the session has not confirmed its password
// in the last 10 minutes. The handler confirms it first (confirmPassword) and then acts.
import type { FieldErrors } from "./frame.ts";
import { Field } from "./parts.tsx";

export function SudoField(props: { needed: boolean; errors?: FieldErrors | undefined }) {
  if (!props.needed) return null;
  return (
    <Field
      name="password"
      label="Your password"
      type="password"
      autocomplete="current-password"
      hint="Confirm your password to do this (it counts for 10 minutes)."
      errors={props.errors}
      required
    />
  );
}
