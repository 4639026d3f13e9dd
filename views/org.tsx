// The Org page: the org's name, status and the operator's note for every member; for owners and admins this
// month's usage against the org's limits; for owners renaming, the Billing link and deleting the org.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError, Section, when } from "./parts.tsx";

export interface OrgView {
  id: string;
  name: string;
  require_sso?: boolean;
  status: string;
  status_note: string | null;
  limits: {
    brands: number | null;
    channels: number | null;
    members: number | null;
    posts_per_month: number | null;
  };
  usage?: {
    period_start: string;
    period_end: string;
    brands: number;
    live_channels: number;
    members: number;
    live_posts_created: number;
  };
}

export interface OrgPageProps {
  f: Frame;
  org: OrgView;
  canRename: boolean;
  canDelete: boolean;
  rename?: { name: string; errors?: FieldErrors | undefined };
  remove?: { confirm: string; errors?: FieldErrors | undefined };
}

/** "N of LIMIT" or "N (no limit)": a limit left unset is unlimited. */
export const ofLimit = (n: number, limit: number | null) =>
  limit === null ? `${n} (no limit)` : `${n} of ${limit}`;

const STATUS: Record<string, string> = {
  active: "Active",
  read_only: "Read-only: members can look, but changes are refused",
  suspended: "Suspended by the operator",
};

function Usage(props: { org: OrgView }) {
  const u = props.org.usage!;
  const l = props.org.limits;
  const rows: [string, string, string][] = [
    ["brands", "Brands", ofLimit(u.brands, l.brands)],
    ["live-channels", "Live channels", ofLimit(u.live_channels, l.channels)],
    ["members", "Members (open invitations included)", ofLimit(u.members, l.members)],
    ["live-posts", "Live posts this month", ofLimit(u.live_posts_created, l.posts_per_month)],
  ];
  return (
    <Section title="Usage this month">
      <p class="muted">
        From {when(u.period_start)} until {when(u.period_end)}. Reaching a limit refuses new ones; nothing is
        removed.
      </p>
      <dl id="usage">
        {rows.map(([id, label, value]) => (
          <>
            <dt>{label}</dt>
            <dd id={`usage-${id}`}>{value}</dd>
          </>
        ))}
      </dl>
    </Section>
  );
}

function Rename(props: OrgPageProps) {
  const e = props.rename?.errors;
  return (
    <Section title="Rename">
      <form method="post" action="/org/name" class="card" id="org-rename">
        <Csrf token={props.f.csrf} />
        <FormError errors={e} shown={["name"]} />
        <Field
          name="name"
          label="Org name"
          value={props.rename?.name ?? props.org.name}
          errors={e}
          maxlength={100}
          required
        />
        <button type="submit" class="primary">
          Rename
        </button>
      </form>
    </Section>
  );
}

function Delete(props: OrgPageProps) {
  const e = props.remove?.errors;
  return (
    <Section title="Delete this org">
      <form method="post" action="/org/delete" class="card danger-zone" id="org-delete">
        <p>
          <strong>
            Deleting the org removes everything in it for good: brands, channels, posts, templates, media,
            keys and webhooks. It cannot be undone.
          </strong>{" "}
          Members keep their accounts; the audit log keeps the record.
        </p>
        <Csrf token={props.f.csrf} />
        <FormError errors={e} shown={["password", "confirm"]} />
        <Field
          name="password"
          label="Your password"
          type="password"
          autocomplete="current-password"
          errors={e}
          required
        />
        <Field
          name="confirm"
          label="Type the org's name to confirm"
          hint={`Type: ${props.org.name}`}
          value={props.remove?.confirm ?? ""}
          autocomplete="off"
          errors={e}
          required
        />
        <button type="submit" class="danger">
          Delete the org for good
        </button>
      </form>
    </Section>
  );
}

export function OrgPage(props: OrgPageProps) {
  const o = props.org;
  return (
    <Layout f={props.f}>
      <dl id="org-facts">
        <dt>Name</dt>
        <dd id="org-page-name">{o.name}</dd>
        <dt>Status</dt>
        <dd id="org-page-status">{STATUS[o.status] ?? o.status}</dd>
        {o.status_note ? (
          <>
            <dt>Operator's note</dt>
            <dd id="org-page-note">{o.status_note}</dd>
          </>
        ) : null}
        <dt>Your role</dt>
        <dd>{props.f.org?.role}</dd>
      </dl>
      {props.f.billing && o.status !== "suspended" ? (
        <p>
          <a href="/org/billing" id="org-billing">
            Billing
          </a>{" "}
          <span class="muted">(plans and payment, on the provider's site)</span>
        </p>
      ) : null}
      {props.f.org?.role === "owner" ? (
        <p>
          <a href="/org/sso" id="org-sso">
            Single sign-on
          </a>{" "}
          <span class="muted">({o.require_sso ? "required" : "your company's identity provider"})</span>
        </p>
      ) : null}
      {o.usage ? <Usage org={o} /> : null}
      {props.canRename ? <Rename {...props} /> : null}
      {props.canDelete ? <Delete {...props} /> : null}
    </Layout>
  );
}

/** After deleting: the org is gone; the person's account is not. */
export function OrgDeletedPage(props: { f: Frame }) {
  return (
    <Layout f={props.f}>
      <p id="org-deleted">The org is deleted, with everything in it. Your account remains.</p>
      {props.f.org ? (
        <p>
          <a href="/home">Go on in {props.f.org.name}</a>
        </p>
      ) : (
        <>
          <p>You are not a member of any other org. An org's owner can invite you to theirs.</p>
          {props.f.csrf ? (
            <form method="post" action="/signout" class="inline">
              <Csrf token={props.f.csrf} />
              <button type="submit">Sign out</button>
            </form>
          ) : null}
        </>
      )}
    </Layout>
  );
}
