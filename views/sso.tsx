// Single sign-on: "Continue with single sign-on" by email, the hand-off to the org's provider, the owners'
// break-glass sign-in, and the owners' settings page (provider, domains with their TXT records, requiring it).
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { ActionTable, Csrf, Field, FormError, Section, when } from "./parts.tsx";
import { SudoField } from "./sudo.tsx";

export function SsoStartPage(props: { f: Frame; email?: string; errors?: FieldErrors | undefined }) {
  return (
    <Layout f={props.f}>
      <div class="narrow">
        <form method="post" action="/signin/sso" class="card" id="sso-form">
          <Csrf token={props.f.csrf} />
          <p>Enter your work email: we send you to your company's sign-in.</p>
          <FormError errors={props.errors} shown={["email"]} />
          <Field
            name="email"
            label="Work email"
            type="email"
            value={props.email}
            errors={props.errors}
            autocomplete="username"
            required
          />
          <button type="submit" class="primary">
            Continue
          </button>
          <p>
            <a href="/signin">Sign in with a password instead</a>
          </p>
        </form>
      </div>
    </Layout>
  );
}

/** The hand-off to the provider: a plain link, followed at once (a form may post only to svc itself). */
export function SsoLeavingPage(props: { f: Frame; url: string }) {
  return (
    <Layout f={props.f}>
      <meta http-equiv="refresh" content={`0;url=${props.url}`} />
      <p class="narrow">
        Taking you to your company's sign-in…{" "}
        <a href={props.url} id="continue">
          Continue
        </a>
      </p>
    </Layout>
  );
}

export function BreakGlassPage(props: { f: Frame; email?: string; errors?: FieldErrors | undefined }) {
  return (
    <Layout f={props.f}>
      <div class="narrow">
        <form method="post" action="/signin/break-glass" class="card" id="break-glass-form">
          <Csrf token={props.f.csrf} />
          <p>
            For owners of an org that requires single sign-on, when the company's sign-in is out of order. It
            is written to the org's audit log.
          </p>
          <FormError errors={props.errors} shown={["email", "password"]} />
          <Field
            name="email"
            label="Email"
            type="email"
            value={props.email}
            errors={props.errors}
            autocomplete="username"
            required
          />
          <Field
            name="password"
            label="Password"
            type="password"
            errors={props.errors}
            autocomplete="current-password"
            required
          />
          <button type="submit" class="danger">
            Sign in as owner
          </button>
        </form>
      </div>
    </Layout>
  );
}

export interface SsoView {
  provider: { issuer: string; client_id: string; default_role: string; updated_at: string } | null;
  domains: {
    id: string;
    domain: string;
    verified: boolean;
    verified_at: string | null;
    record: { name: string; type: "TXT"; value: string };
  }[];
  require_sso: boolean;
}

export interface SsoPageProps {
  f: Frame;
  sso: SsoView;
  sudo: boolean;
  /** The session came through this org's single sign-on (needed to require it). */
  viaSso: boolean;
  provider?: { issuer: string; client_id: string; default_role: string; errors?: FieldErrors | undefined };
  domain?: { domain: string; errors?: FieldErrors | undefined };
  errors?: FieldErrors | undefined;
}

const ROLES = ["viewer", "editor", "admin"] as const;

function Provider(props: SsoPageProps) {
  const p = props.provider ?? {
    issuer: props.sso.provider?.issuer ?? "",
    client_id: props.sso.provider?.client_id ?? "",
    default_role: props.sso.provider?.default_role ?? "viewer",
  };
  const e = props.provider?.errors;
  const connected = props.sso.provider !== null;
  return (
    <Section title="Identity provider" id="sso-provider">
      {connected ? (
        <p id="sso-connected">
          Connected to <strong>{props.sso.provider!.issuer}</strong> since{" "}
          {when(props.sso.provider!.updated_at)}.
        </p>
      ) : (
        <p class="muted">
          Connect your company's OpenID Connect provider (Okta, Microsoft Entra ID, Google Workspace,
          Keycloak…). Register svc there as a web application with the redirect URI shown below.
        </p>
      )}
      <form method="post" action="/org/sso/provider" class="card" id="sso-provider-form">
        <Csrf token={props.f.csrf} />
        <FormError errors={e} shown={["issuer", "client_id", "client_secret", "default_role", "password"]} />
        <Field
          name="issuer"
          label="Issuer URL"
          value={p.issuer}
          errors={e}
          hint="Where the provider publishes /.well-known/openid-configuration."
          required
        />
        <Field name="client_id" label="Client ID" value={p.client_id} errors={e} required />
        <Field
          name="client_secret"
          label="Client secret"
          type="password"
          errors={e}
          autocomplete="off"
          {...(connected ? { hint: "Leave empty to keep the current secret." } : {})}
        />
        <div class={e?.default_role ? "field has-error" : "field"}>
          <label for="f-default_role">Role of people who sign in for the first time</label>
          <select id="f-default_role" name="default_role">
            {ROLES.map((r) => (
              <option value={r} selected={r === p.default_role}>
                {r}
              </option>
            ))}
          </select>
          {e?.default_role ? <p class="error">{e.default_role}</p> : null}
        </div>
        <SudoField needed={props.sudo} errors={e} />
        <button type="submit" class="primary">
          {connected ? "Save provider" : "Connect provider"}
        </button>
      </form>
      {connected ? (
        <form
          method="post"
          action="/org/sso/provider/remove"
          id="sso-provider-remove"
          data-confirm="Remove the provider?"
        >
          <Csrf token={props.f.csrf} />
          <SudoField needed={props.sudo} />
          <button type="submit" class="danger">
            Remove provider
          </button>
        </form>
      ) : null}
    </Section>
  );
}

function Domains(props: SsoPageProps) {
  const e = props.domain?.errors;
  return (
    <Section title="Domains" id="sso-domains">
      <p class="muted">
        People whose email is in a verified domain sign in through the provider. Prove each domain with a DNS
        TXT record; up to 20.
      </p>
      {props.sso.domains.length ? (
        <ActionTable id="sso-domain-list" label="Domains" columns={["Domain", "Status", "TXT record"]}>
          {props.sso.domains.map((d) => (
            <tr id={`domain-${d.domain}`}>
              <td>{d.domain}</td>
              <td>
                {d.verified ? (
                  <span class="badge ok">Verified</span>
                ) : (
                  <span class="badge">Waiting for DNS</span>
                )}
              </td>
              <td>
                <code>{d.record.name}</code> TXT <code class="txt-value">{d.record.value}</code>
              </td>
              <td>
                {d.verified ? null : (
                  <form method="post" action={`/org/sso/domains/${d.id}/verify`} class="inline">
                    <Csrf token={props.f.csrf} />
                    <SudoField needed={props.sudo} />
                    <button type="submit">Verify</button>
                  </form>
                )}
                <form method="post" action={`/org/sso/domains/${d.id}/remove`} class="inline">
                  <Csrf token={props.f.csrf} />
                  <SudoField needed={props.sudo} />
                  <button type="submit" class="danger">
                    Remove
                  </button>
                </form>
              </td>
            </tr>
          ))}
        </ActionTable>
      ) : null}
      <form method="post" action="/org/sso/domains" class="card" id="sso-domain-form">
        <Csrf token={props.f.csrf} />
        <FormError errors={e} shown={["domain", "password"]} />
        <Field
          name="domain"
          label="Domain"
          value={props.domain?.domain}
          errors={e}
          hint="Such as example.com"
          required
        />
        <SudoField needed={props.sudo} errors={e} />
        <button type="submit">Add domain</button>
      </form>
    </Section>
  );
}

function Require(props: SsoPageProps) {
  const on = props.sso.require_sso;
  return (
    <Section title="Require single sign-on" id="sso-require">
      <p>
        {on
          ? "Required: members sign in through the provider only. Password sign-in, password reset and command-line sign-ins approved without it are refused. Owners keep a break-glass sign-in, written to the audit log."
          : "Not required: members may also sign in with a password or a passkey."}
      </p>
      {!on && !props.viaSso ? (
        <p class="muted" id="sso-require-hint">
          Sign in once with single sign-on yourself before requiring it.
        </p>
      ) : null}
      <form method="post" action="/org/sso/require" class="card" id="sso-require-form">
        <Csrf token={props.f.csrf} />
        <input type="hidden" name="require" value={on ? "off" : "on"} />
        <SudoField needed={props.sudo} />
        <button type="submit" class={on ? "danger" : "primary"}>
          {on ? "Stop requiring single sign-on" : "Require single sign-on"}
        </button>
      </form>
    </Section>
  );
}

export function SsoPage(props: SsoPageProps & { redirectUri: string }) {
  return (
    <Layout f={props.f}>
      <FormError errors={props.errors} />
      <p class="muted">
        Redirect URI to register at the provider: <code id="sso-redirect-uri">{props.redirectUri}</code>
      </p>
      <Provider {...props} />
      <Domains {...props} />
      <Require {...props} />
    </Layout>
  );
}
