// Mail accounts: the brands' provider accounts in this mode (connect with the provider's own fields, delete), and a
// brand's email theme (logo from its images, accent colour, postal address, footer). Secret fields are password
// inputs and never shown back; everything people typed is escaped by the JSX runtime.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { type BrandRef, brandLabel, Csrf, Field, FormError, Section, when } from "./parts.tsx";
import { canChange } from "./publishing.tsx";

export interface MaBrand extends BrandRef {
  id: string;
  email_theme: { logo: string | null; accent: string; postal_address: string; footer: string } | null;
}
export interface MaAccount {
  id: string;
  brand: string;
  provider: string;
  display_name: string;
  from_name: string;
  from_email: string;
  reply_to: string | null;
  default_audiences: string[];
  status: string;
  created_at: string;
}
export interface MaProvider {
  provider: string;
  name: string;
  available: boolean;
  fields: {
    name: string;
    label: string;
    help: string;
    secret: boolean;
    optional: boolean;
    default: string | null;
  }[];
}
export interface ConnectForm {
  brand: string;
  provider: string;
  from_name: string;
  from_email: string;
  reply_to: string;
  default_audiences: string;
  /** Non-secret provider fields as typed (secret ones are never sent back). */
  fields: Record<string, string>;
}
export interface ThemeForm {
  logo: string;
  accent: string;
  postal_address: string;
  footer: string;
}

export function MailAccountsPage(props: {
  f: Frame;
  accounts: MaAccount[];
  brands: MaBrand[];
  providers: MaProvider[];
  form: ConnectForm;
  errors?: FieldErrors | undefined;
  themeBrand: MaBrand | null;
  themeForm: ThemeForm;
  themeErrors?: FieldErrors | undefined;
  images: { id: string; label: string }[];
}) {
  const { f } = props;
  const writable = canChange(f);
  const mayWrite = f.scopes.includes("channels:write") && writable;
  const mayTheme = f.scopes.includes("brands:write") && writable;
  const byId = new Map(props.brands.map((b) => [b.id, b]));
  const available = props.providers.filter((p) => p.available);
  const shown = ["brand", "provider", "from_name", "from_email", "reply_to", "default_audiences", "fields"];
  return (
    <Layout f={f}>
      <div class="wide">
        <Section title={`${f.livemode ? "Live" : "Test"} mail accounts`} id="s-mail-accounts">
          {props.accounts.length === 0 ? (
            <div class="empty" id="mail-accounts-empty">
              <p>
                No mail account in {f.livemode ? "live" : "test"} mode. Connect one below to send newsletters.
              </p>
            </div>
          ) : (
            <ul class="post-list" id="mail-accounts">
              {props.accounts.map((a) => {
                const b = byId.get(a.brand);
                return (
                  <li class="post-row" id={`mail-account-${a.id}`}>
                    <div class="post-when">
                      <span
                        class={`status ${a.status === "active" ? "status-published" : "status-needs_attention"}`}
                      >
                        {a.status === "active" ? "Active" : "Needs reconnecting"}
                      </span>
                      <span class="muted">since {when(a.created_at)}</span>
                    </div>
                    <p class="post-text">
                      <strong>{a.display_name}</strong> <span class="muted">({a.provider})</span>
                    </p>
                    <p class="muted">
                      {b ? brandLabel(b) : a.brand} · {a.from_name} &lt;{a.from_email}&gt;
                      {a.default_audiences.length
                        ? ` · default audiences: ${a.default_audiences.join(", ")}`
                        : ""}
                    </p>
                    {mayWrite ? (
                      <form
                        method="post"
                        action={`/mail-accounts/${a.id}/delete`}
                        class="inline"
                        data-confirm={`Delete the mail account ${a.display_name}? Its issues that went out keep their results.`}
                      >
                        <Csrf token={f.csrf} />
                        <button type="submit" class="danger" aria-label={`Delete ${a.display_name}`}>
                          Delete
                        </button>
                      </form>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </Section>
        {mayWrite && props.brands.length ? (
          <Section title="Connect a mail account" id="s-connect-mail">
            <form method="post" action="/mail-accounts" class="card" id="mail-account-connect">
              <Csrf token={f.csrf} />
              <FormError errors={props.errors} shown={shown} />
              <div class="field">
                <label for="f-brand">Brand</label>
                <select id="f-brand" name="brand">
                  {props.brands.map((b) => (
                    <option value={b.id} selected={props.form.brand === b.id}>
                      {brandLabel(b)}
                    </option>
                  ))}
                </select>
              </div>
              <fieldset
                class={props.errors?.provider || props.errors?.fields ? "events has-error" : "events"}
              >
                <legend>Provider</legend>
                {available.map((p, i) => (
                  <div class="nl-account">
                    <label>
                      <input
                        type="radio"
                        name="provider"
                        value={p.provider}
                        checked={props.form.provider ? props.form.provider === p.provider : i === 0}
                      />{" "}
                      <strong>{p.name}</strong>
                    </label>
                    {p.fields.map((fl) => (
                      <div class="field">
                        <label for={`f-${p.provider}-${fl.name}`}>
                          {fl.label}
                          {fl.optional ? " (optional)" : ""}
                        </label>
                        <p class="hint" id={`f-${p.provider}-${fl.name}-hint`}>
                          {fl.help}
                        </p>
                        <input
                          id={`f-${p.provider}-${fl.name}`}
                          name={`field.${p.provider}.${fl.name}`}
                          type={fl.secret ? "password" : "text"}
                          autocomplete="off"
                          aria-describedby={`f-${p.provider}-${fl.name}-hint`}
                          value={
                            fl.secret || props.form.provider !== p.provider
                              ? ""
                              : (props.form.fields[fl.name] ?? "")
                          }
                          placeholder={fl.default ?? undefined}
                        />
                      </div>
                    ))}
                  </div>
                ))}
                {props.errors?.provider || props.errors?.fields ? (
                  <p class="error" id="f-provider-error">
                    {[props.errors.provider, props.errors.fields].filter(Boolean).join(" ")}
                  </p>
                ) : null}
              </fieldset>
              <Field
                name="from_name"
                label="From name"
                value={props.form.from_name}
                errors={props.errors}
                required
                maxlength={100}
              />
              <Field
                name="from_email"
                label="From address"
                type="email"
                value={props.form.from_email}
                errors={props.errors}
                required
              />
              <Field
                name="reply_to"
                label="Reply-to (optional)"
                type="email"
                value={props.form.reply_to}
                errors={props.errors}
              />
              <Field
                name="default_audiences"
                label="Default audiences (optional)"
                value={props.form.default_audiences}
                errors={props.errors}
                hint="The provider's audience IDs, separated by commas."
              />
              <button type="submit" class="primary" id="connect-button">
                Connect
              </button>
            </form>
          </Section>
        ) : null}
        {props.brands.length ? (
          <Section title="Email theme" id="s-email-theme">
            <form method="get" action="/mail-accounts" class="filters" id="theme-brand">
              <label for="theme-brand-select">Brand</label>
              <select id="theme-brand-select" name="theme">
                {props.brands.map((b) => (
                  <option value={b.id} selected={props.themeBrand?.id === b.id}>
                    {brandLabel(b)}
                  </option>
                ))}
              </select>
              <button type="submit">Show</button>
            </form>
            {props.themeBrand ? (
              <form
                method="post"
                action={`/mail-accounts/theme/${props.themeBrand.id}`}
                class="card"
                id="email-theme-form"
              >
                <Csrf token={f.csrf} />
                <FormError
                  errors={props.themeErrors}
                  shown={["logo", "accent", "postal_address", "footer"]}
                />
                <div class={props.themeErrors?.logo ? "field has-error" : "field"}>
                  <label for="f-logo">Logo</label>
                  <select id="f-logo" name="logo" disabled={!mayTheme}>
                    <option value="">No logo</option>
                    {props.images.map((m) => (
                      <option value={m.id} selected={props.themeForm.logo === m.id}>
                        {m.label}
                      </option>
                    ))}
                  </select>
                  {props.themeErrors?.logo ? <p class="error">{props.themeErrors.logo}</p> : null}
                </div>
                <Field
                  name="accent"
                  label="Accent colour"
                  value={props.themeForm.accent}
                  errors={props.themeErrors}
                  hint="#rrggbb, readable on white (contrast at least 4.5:1); empty for the default blue."
                />
                <div class={props.themeErrors?.postal_address ? "field has-error" : "field"}>
                  <label for="f-postal_address">Postal address</label>
                  <p class="hint" id="f-postal_address-hint">
                    Every newsletter carries it; scheduling needs it.
                  </p>
                  <textarea
                    id="f-postal_address"
                    name="postal_address"
                    rows={3}
                    maxlength={300}
                    aria-describedby="f-postal_address-hint"
                  >
                    {props.themeForm.postal_address}
                  </textarea>
                  {props.themeErrors?.postal_address ? (
                    <p class="error" id="f-postal_address-error">
                      {props.themeErrors.postal_address}
                    </p>
                  ) : null}
                </div>
                <Field
                  name="footer"
                  label="Footer (one line)"
                  value={props.themeForm.footer}
                  errors={props.themeErrors}
                  maxlength={300}
                />
                {mayTheme ? (
                  <button type="submit" class="primary" id="theme-save">
                    Save theme
                  </button>
                ) : null}
              </form>
            ) : null}
          </Section>
        ) : null}
      </div>
    </Layout>
  );
}
