import * as v from "valibot";
import { name, rule } from "../validate.ts";

export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
export const APPROVAL_POLICIES = ["none", "required_for_editors_and_keys", "required_for_all"] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

export const isTimezone = (tz: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
};

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

export const Slot = v.strictObject({
  weekday: v.pipe(v.string(), v.picklist(WEEKDAYS, rule("slot_invalid", "weekday must be monday … sunday."))),
  time: v.pipe(
    v.string(),
    v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, rule("slot_invalid", "time must be HH:MM on a 24-hour clock.")),
  ),
});
export type Slot = v.InferOutput<typeof Slot>;

const slots = v.pipe(
  v.array(Slot),
  v.maxLength(200, rule("too_many_slots", "A brand has at most 200 slots.")),
  v.check(
    (list) => new Set(list.map((s) => `${s.weekday} ${s.time}`)).size === list.length,
    rule("slot_invalid", "Each slot may be listed once."),
  ),
);

const slug = v.pipe(
  v.string(),
  v.regex(
    /^[a-z0-9]+(-[a-z0-9]+)*$/,
    rule("slug_invalid", "slug takes lowercase letters, digits and single dashes."),
  ),
  v.maxLength(100, rule("slug_invalid", "slug is at most 100 characters.")),
);
const timezone = v.pipe(
  v.string(),
  v.check(isTimezone, rule("timezone_invalid", "timezone must be an IANA time zone such as Europe/Berlin.")),
);
const approvalPolicy = v.pipe(
  v.string(),
  v.picklist(
    APPROVAL_POLICIES,
    rule(
      "approval_policy_invalid",
      "approval_policy must be none, required_for_editors_and_keys or required_for_all.",
    ),
  ),
);
const utmDomains = v.pipe(
  v.array(
    v.pipe(
      v.string(),
      v.toLowerCase(),
      v.regex(
        HOSTNAME,
        rule("utm_domain_invalid", "Each UTM domain must be a host name such as example.com."),
      ),
    ),
  ),
  v.maxLength(20, rule("utm_domains_too_many", "A brand has at most 20 UTM domains.")),
);

export const BrandCreate = v.strictObject({
  name: name(),
  slug: v.optional(slug),
  timezone: v.optional(timezone),
  approval_policy: v.optional(approvalPolicy),
  utm_domains: v.optional(utmDomains),
  slots: v.optional(slots),
});
export const BrandUpdate = v.strictObject({
  name: v.optional(name()),
  slug: v.optional(slug),
  timezone: v.optional(timezone),
  approval_policy: v.optional(approvalPolicy),
  utm_domains: v.optional(utmDomains),
  slots: v.optional(slots),
});

export const DEFAULT_SLOTS: Slot[] = WEEKDAYS.slice(0, 5).flatMap((weekday) => [
  { weekday, time: "09:00" },
  { weekday, time: "13:00" },
]);

// The email theme (reference §2): codes accent_invalid, postal_address_too_long, footer_invalid; the contrast
// of the accent and the logo are checked by setEmailTheme.
export const EmailThemeInput = v.strictObject({
  logo: v.optional(v.nullable(v.string())),
  accent: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^(#[0-9a-fA-F]{6})?$/,
        rule("accent_invalid", 'accent is a colour "#rrggbb", or "" for none.'),
      ),
    ),
  ),
  postal_address: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(300, rule("postal_address_too_long", "postal_address is at most 300 characters.")),
    ),
  ),
  footer: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(300, rule("footer_invalid", "footer is one line of at most 300 characters.")),
      v.regex(
        /^[^\r\n\u2028\u2029]*$/,
        rule("footer_invalid", "footer is one line of at most 300 characters."),
      ),
    ),
  ),
});
