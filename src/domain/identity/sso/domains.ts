// A domain an org claims for single sign-on: a person whose email is in it is sent to the org's provider. It is
// proven by a TXT record `_svc-verify.<domain>` holding `svc-verify=<token>`; a domain signs in to one org only.
import { ServiceError } from "../../../lib/errors.ts";

export const DOMAINS_LIMIT = 20;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A domain as typed, normalised (lowercase, no trailing dot), or domain_invalid. */
export function parseDomain(raw: unknown): string {
  const d = typeof raw === "string" ? raw.trim().toLowerCase().replace(/\.$/, "") : "";
  const labels = d.split(".");
  if (
    d.length > 253 ||
    labels.length < 2 ||
    !labels.every((l) => LABEL.test(l)) ||
    /^\d+$/.test(labels.at(-1)!)
  )
    throw new ServiceError(422, "domain_invalid", "Enter a domain name such as example.com.", {
      param: "domain",
    });
  return d;
}

/** The domain of an email address, lowercase; null when there is none. */
export function emailDomain(email: string): string | null {
  const i = email.lastIndexOf("@");
  return i > 0 && i < email.length - 1
    ? email
        .slice(i + 1)
        .trim()
        .toLowerCase()
    : null;
}
