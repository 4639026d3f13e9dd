// Brands: the org's brands as cards (zone, approval policy, slots a week, channels in this mode, next free slot),
// a form to create one, a brand's settings with its weekly posting slots as a grid of days (each day's times), and
// deleting one after typing its name. Every form works without JavaScript.

import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError, Section, whenIn } from "./parts.tsx";
import { ReviewLinksSection, type ReviewLinksState } from "./review-links.tsx";

export const WEEK = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

export const POLICIES: { value: string; label: string }[] = [
  { value: "none", label: "No approval: posts go out as scheduled" },
  {
    value: "required_for_editors_and_keys",
    label: "Approve posts by editors and API keys (admins' and owners' go out as scheduled)",
  },
  { value: "required_for_all", label: "Approve every post" },
];

export interface BrandCard {
  id: string;
  name: string;
  slug: string;
  timezone: string;
  approval_policy: string;
  utm_domains: string[];
  slots: { weekday: string; time: string }[];
  next_slot: string | null;
  channels: number;
}

/** The brand form as typed: slots as each day's times ("09:00, 13:00"), UTM domains one per line. */
export interface BrandForm {
  name: string;
  slug: string;
  timezone: string;
  approval_policy: string;
  utm_domains: string;
  days: Record<string, string>;
}

export const formOfBrand = (b: BrandCard): BrandForm => ({
  name: b.name,
  slug: b.slug,
  timezone: b.timezone,
  approval_policy: b.approval_policy,
  utm_domains: b.utm_domains.join("\n"),
  days: Object.fromEntries(
    WEEK.map((d) => [
      d,
      b.slots
        .filter((s) => s.weekday === d)
        .map((s) => s.time)
        .sort()
        .join(", "),
    ]),
  ),
});

const policyLabel = (v: string) => POLICIES.find((p) => p.value === v)?.label ?? v;
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

function SlotGrid(props: { form: BrandForm; errors?: FieldErrors | undefined }) {
  const general = props.errors?.slots;
  return (
    <fieldset class="slot-grid" id="slot-grid">
      <legend>Posting slots</legend>
      <p class="hint">
        The times a post scheduled to the "next free slot" can take, in the brand's time zone: 24-hour times,
        separated by commas. A day left empty has no slots.
      </p>
      {general ? (
        <p class="error" id="slots-error">
          {general}
        </p>
      ) : null}
      <div class="days">
        {WEEK.map((d) => {
          const error = props.errors?.[`slots.${d}`];
          return (
            <div class={error ? "field day has-error" : "field day"}>
              <label for={`slot-${d}`}>{cap(d)}</label>
              <input
                id={`slot-${d}`}
                type="text"
                name={`slots.${d}`}
                value={props.form.days[d] ?? ""}
                placeholder="none"
                aria-invalid={error ? "true" : undefined}
                aria-describedby={error ? `slot-${d}-error` : undefined}
              />
              {error ? (
                <p class="error" id={`slot-${d}-error`}>
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

function BrandFields(props: { form: BrandForm; errors?: FieldErrors | undefined; zones: string[] }) {
  const e = props.errors;
  return (
    <>
      <Field name="name" label="Name" value={props.form.name} errors={e} required maxlength={100} />
      <Field
        name="slug"
        label="Slug"
        value={props.form.slug}
        errors={e}
        hint="Lowercase letters, digits and dashes; names the brand in the API and the CLI. Left empty, it is made from the name."
        maxlength={100}
      />
      <div class={e?.timezone ? "field has-error" : "field"}>
        <label for="f-timezone">Time zone</label>
        <p class="hint" id="f-timezone-hint">
          Slots and times typed for this brand are in this zone (an IANA name such as Europe/Lisbon).
        </p>
        <input
          id="f-timezone"
          type="text"
          name="timezone"
          list="zones"
          value={props.form.timezone}
          autocomplete="off"
          aria-invalid={e?.timezone ? "true" : undefined}
          aria-describedby={e?.timezone ? "f-timezone-hint f-timezone-error" : "f-timezone-hint"}
        />
        <datalist id="zones">
          {props.zones.map((z) => (
            <option value={z} />
          ))}
        </datalist>
        {e?.timezone ? (
          <p class="error" id="f-timezone-error">
            {e.timezone}
          </p>
        ) : null}
      </div>
      <div class={e?.approval_policy ? "field has-error" : "field"}>
        <label for="f-approval_policy">Approval</label>
        <select id="f-approval_policy" name="approval_policy">
          {POLICIES.map((p) => (
            <option value={p.value} selected={props.form.approval_policy === p.value}>
              {p.label}
            </option>
          ))}
        </select>
        {e?.approval_policy ? <p class="error">{e.approval_policy}</p> : null}
      </div>
      <div class={e?.utm_domains ? "field has-error" : "field"}>
        <label for="f-utm_domains">UTM domains</label>
        <p class="hint" id="f-utm_domains-hint">
          Links to these sites get UTM tags saying which network the visit came from. One host name a line, at
          most 20.
        </p>
        <textarea
          id="f-utm_domains"
          name="utm_domains"
          rows={3}
          aria-invalid={e?.utm_domains ? "true" : undefined}
          aria-describedby={e?.utm_domains ? "f-utm_domains-hint f-utm_domains-error" : "f-utm_domains-hint"}
        >
          {props.form.utm_domains}
        </textarea>
        {e?.utm_domains ? (
          <p class="error" id="f-utm_domains-error">
            {e.utm_domains}
          </p>
        ) : null}
      </div>
    </>
  );
}

export function BrandsPage(props: {
  f: Frame;
  brands: BrandCard[];
  canManage: boolean;
  form: BrandForm;
  errors?: FieldErrors | undefined;
  zones: string[];
}) {
  return (
    <Layout f={props.f}>
      <p class="lead">
        A brand is one publishing identity: its channels, posting slots, approval rule and time zone. Brands
        are shared by test and live mode.
      </p>
      {props.brands.length === 0 ? (
        <p class="empty" id="brands-empty">
          No brands yet.{" "}
          {props.canManage ? "Create the first one below." : "Ask an admin of the org to create one."}
        </p>
      ) : (
        <ul class="cards" id="brand-list">
          {props.brands.map((b) => (
            <li class="card brand-card" id={`brand-${b.id}`}>
              <h2 class="brand-title">
                {props.canManage ? <a href={`/brands/${b.id}`}>{b.name}</a> : b.name}{" "}
                <span class="muted">({b.slug})</span>
              </h2>
              <dl class="facts">
                <dt>Time zone</dt>
                <dd>{b.timezone}</dd>
                <dt>Approval</dt>
                <dd>{policyLabel(b.approval_policy)}</dd>
                <dt>Slots</dt>
                <dd>{b.slots.length === 0 ? "none" : `${b.slots.length} a week`}</dd>
                <dt>Next free slot</dt>
                <dd class="next-slot">{b.next_slot ? whenIn(b.next_slot, b.timezone) : "none free"}</dd>
                <dt>Channels</dt>
                <dd>
                  <a href="/channels">
                    {b.channels} in {props.f.livemode ? "live" : "test"} mode
                  </a>
                </dd>
              </dl>
              {props.canManage ? (
                <p>
                  <a class="button" href={`/brands/${b.id}`} id={`edit-${b.id}`}>
                    Edit brand and slots
                  </a>
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {props.canManage ? (
        <Section title="Create a brand" id="create">
          <form method="post" action="/brands" class="card stack narrow-form" id="brand-create">
            <Csrf token={props.f.csrf} />
            <FormError
              errors={props.errors}
              shown={["name", "slug", "timezone", "approval_policy", "utm_domains"]}
            />
            <BrandFields form={props.form} errors={props.errors} zones={props.zones} />
            <p class="hint">New brands get slots on weekdays at 09:00 and 13:00; edit them after.</p>
            <button type="submit" class="primary" id="brand-create-submit">
              Create brand
            </button>
          </form>
        </Section>
      ) : null}
    </Layout>
  );
}

export function BrandPage(props: {
  f: Frame;
  brand: BrandCard;
  form: BrandForm;
  errors?: FieldErrors | undefined;
  zones: string[];
  /** The client review links section; left out for a member who may not approve. */
  reviewLinks?: ReviewLinksState | null;
}) {
  const b = props.brand;
  const shown = [
    "name",
    "slug",
    "timezone",
    "approval_policy",
    "utm_domains",
    "slots",
    ...WEEK.map((d) => `slots.${d}`),
  ];
  return (
    <Layout f={props.f}>
      <p>
        <a href="/brands">← All brands</a>
      </p>
      <p class="next-slot-line" id="next-slot">
        Next free slot in {props.f.livemode ? "live" : "test"} mode:{" "}
        <strong>{b.next_slot ? whenIn(b.next_slot, b.timezone) : "none free in the next 56 days"}</strong>
      </p>
      <form method="post" action={`/brands/${b.id}`} class="card stack" id="brand-edit">
        <Csrf token={props.f.csrf} />
        <FormError errors={props.errors} shown={shown} />
        <BrandFields form={props.form} errors={props.errors} zones={props.zones} />
        <SlotGrid form={props.form} errors={props.errors} />
        <button type="submit" class="primary" id="brand-save">
          Save brand
        </button>
      </form>
      {props.reviewLinks ? (
        <ReviewLinksSection f={props.f} brandId={b.id} timezone={b.timezone} s={props.reviewLinks} />
      ) : null}
      <Section title="Delete this brand" id="delete">
        <div class="card danger-zone">
          <p>
            Deleting <strong>{b.name}</strong> removes it with its posts and their history, templates, media
            and the API keys limited to it, in both modes. Disconnect its channels first.
          </p>
          <a class="button danger" href={`/brands/${b.id}/delete`} id="brand-delete">
            Delete brand…
          </a>
        </div>
      </Section>
    </Layout>
  );
}

export function DeleteBrandPage(props: {
  f: Frame;
  brand: { id: string; name: string; slug: string };
  errors?: FieldErrors | undefined;
}) {
  const b = props.brand;
  return (
    <Layout f={props.f}>
      <form method="post" action={`/brands/${b.id}/delete`} class="card danger-zone narrow" id="delete-brand">
        <Csrf token={props.f.csrf} />
        <p>
          This deletes <strong>{b.name}</strong> ({b.slug}) for good: its posts and their history, templates,
          media and the API keys limited to it, in test and live mode.
        </p>
        <Field
          name="confirm"
          label={`Type the brand's name, ${b.name}, to confirm`}
          errors={props.errors}
          required
          autocomplete="off"
        />
        <FormError errors={props.errors} shown={["confirm"]} />
        <button type="submit" class="danger" id="delete-brand-confirm">
          Delete brand
        </button>{" "}
        <a href={`/brands/${b.id}`}>Cancel</a>
      </form>
    </Layout>
  );
}
