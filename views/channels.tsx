// Channels: the org's channels in this mode grouped by brand (network, account, state, last check), with each
// one's actions; connecting one (test mode: a sandbox channel standing in for a network; live mode: a form per
// network made from its connect_fields, or a "Connect with …" button for the networks that sign in); and the
// developer apps those sign-ins use. Every form works without JavaScript; htmx is not needed here.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { type BrandRef, brandLabel, Csrf, FormError, Section, when } from "./parts.tsx";

export interface ChannelBrand extends BrandRef {
  id: string;
}

export interface ChannelRow {
  id: string;
  brand: string;
  provider: string;
  emulates: string | null;
  display_name: string;
  handle: string | null;
  profile_url: string | null;
  settings: Record<string, string>;
  status: string;
  status_note: string | null;
  checked_at: string | null;
  check_error: string | null;
  created_at: string;
}

export interface NetworkField {
  name: string;
  label: string;
  help: string;
  secret: boolean;
  optional: boolean;
}

export interface Network {
  provider: string;
  name: string;
  /** Connected by typing the network's credentials (its connect_fields). */
  fields: NetworkField[];
  /** Connected by signing in through a developer app (the /connect flow). */
  signIn: boolean;
}

export interface ChannelApp {
  id: string;
  provider: string;
  name: string;
  provided_by: "org" | "server";
  client_id: string | null;
}

/** What the last submitted form was, so its errors and values are shown beside it and nowhere else. */
export interface Submitted {
  /** "connect:<provider>", "rename:<id>", "reconnect:<id>", "app:new", "app:<id>", "channel:<id>". */
  form: string;
  values: Record<string, string>;
  errors: FieldErrors;
}

export interface ChannelsProps {
  f: Frame;
  brands: ChannelBrand[];
  channels: ChannelRow[];
  /** Every network by name, for the tags and the sandbox's "emulates" choice. */
  names: Record<string, string>;
  /** The networks this mode can connect (test: the sandbox alone). */
  networks: Network[];
  apps: ChannelApp[];
  canManage: boolean;
  /** The result of "Check now" on one channel. */
  checked?: { id: string; result: string } | undefined;
  submitted?: Submitted | undefined;
}

const STATUS: Record<string, { label: string; cls: string }> = {
  active: { label: "Active", cls: "ok" },
  needs_reauth: { label: "Needs reconnecting", cls: "warn" },
  disabled: { label: "Disabled", cls: "off" },
};

const CHECKED: Record<string, string> = {
  ok: "Checked just now: the network accepted the credentials.",
  needs_reauth: "The network refused the credentials: reconnect this channel.",
  unavailable: "The network could not be reached; nothing was concluded. Try again later.",
  skipped: "Nothing to check: this network (or a sandbox, or a disabled channel) has no credential check.",
};

function errorsOf(p: ChannelsProps, form: string): FieldErrors | undefined {
  return p.submitted?.form === form ? p.submitted.errors : undefined;
}
function given(p: ChannelsProps, form: string, name: string, dflt = ""): string {
  return p.submitted?.form === form ? (p.submitted.values[name] ?? dflt) : dflt;
}

/** A field of a form that appears many times on the page: its ID carries the form's prefix. */
function Input(props: {
  prefix: string;
  name: string;
  label: string;
  hint?: string | undefined;
  value?: string | undefined;
  type?: string;
  required?: boolean;
  errors?: FieldErrors | undefined;
  maxlength?: number;
  autocomplete?: string;
}) {
  const id = `${props.prefix}-${props.name.replace(/[^a-z0-9_-]/gi, "-")}`;
  const error = props.errors?.[props.name];
  const described = [props.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class={error ? "field has-error" : "field"}>
      <label for={id}>
        {props.label}
        {props.required ? null : <span class="muted"> (optional)</span>}
      </label>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value ?? ""}
        required={props.required}
        maxlength={props.maxlength}
        autocomplete={props.autocomplete ?? "off"}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={described || undefined}
      />
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function BrandSelect(props: { prefix: string; brands: ChannelBrand[]; value: string; errors?: FieldErrors }) {
  const error = props.errors?.brand;
  return (
    <div class={error ? "field has-error" : "field"}>
      <label for={`${props.prefix}-brand`}>Brand</label>
      <select id={`${props.prefix}-brand`} name="brand">
        {props.brands.map((b) => (
          <option value={b.id} selected={props.value === b.id}>
            {brandLabel(b)}
          </option>
        ))}
      </select>
      {error ? <p class="error">{error}</p> : null}
    </div>
  );
}

/** The network a channel posts to, in words: a sandbox says what it stands in for. */
export function networkLabel(
  c: { provider: string; emulates: string | null },
  names: Record<string, string>,
) {
  const name = names[c.provider] ?? c.provider;
  return c.provider === "sandbox" && c.emulates
    ? `${name} · emulates ${names[c.emulates] ?? c.emulates}`
    : name;
}

function Avatar(props: { name: string; provider: string }) {
  const letter = [...props.name.trim()][0]?.toUpperCase() ?? "?";
  return (
    <span class={`avatar net-${props.provider}`} aria-hidden="true">
      {letter}
    </span>
  );
}

function ChannelActions(props: { p: ChannelsProps; c: ChannelRow; network: Network | undefined }) {
  const { p, c } = props;
  const csrf = p.f.csrf;
  const renameForm = `rename:${c.id}`;
  const reconnectForm = `reconnect:${c.id}`;
  const rowErrors = errorsOf(p, `channel:${c.id}`);
  return (
    <div class="chan-actions">
      {rowErrors ? <FormError errors={rowErrors} /> : null}
      <div class="chan-buttons">
        <form method="post" action={`/channels/${c.id}/check`} class="inline">
          <Csrf token={csrf} />
          <button type="submit" id={`check-${c.id}`}>
            Check now
          </button>
        </form>
        {c.status === "disabled" ? (
          <form method="post" action={`/channels/${c.id}/status`} class="inline">
            <Csrf token={csrf} />
            <input type="hidden" name="status" value="active" />
            <button type="submit" id={`enable-${c.id}`}>
              Enable
            </button>
          </form>
        ) : c.status === "active" ? (
          <form method="post" action={`/channels/${c.id}/status`} class="inline">
            <Csrf token={csrf} />
            <input type="hidden" name="status" value="disabled" />
            <button type="submit" id={`disable-${c.id}`}>
              Disable
            </button>
          </form>
        ) : null}
        {props.network?.signIn && c.provider !== "sandbox" ? (
          <a class="button" href={`/connect?channel=${encodeURIComponent(c.id)}`} id={`signin-again-${c.id}`}>
            Reconnect with {props.network.name}
          </a>
        ) : null}
        <a class="button danger" href={`/channels/${c.id}/delete`} id={`delete-${c.id}`}>
          Disconnect…
        </a>
      </div>
      {c.provider === "sandbox" ? (
        <details open={p.submitted?.form === renameForm}>
          <summary>Rename</summary>
          <form method="post" action={`/channels/${c.id}/rename`} class="stack">
            <Csrf token={csrf} />
            <Input
              prefix={`rn-${c.id}`}
              name="display_name"
              label="Display name"
              value={given(p, renameForm, "display_name", c.display_name)}
              errors={errorsOf(p, renameForm)}
              required
              maxlength={100}
            />
            <FormError errors={errorsOf(p, renameForm)} shown={["display_name"]} />
            <button type="submit">Save name</button>
          </form>
        </details>
      ) : null}
      {props.network && props.network.fields.length > 0 && c.provider !== "sandbox" ? (
        <details open={p.submitted?.form === reconnectForm || c.status === "needs_reauth"}>
          <summary>Reconnect with new credentials</summary>
          <form method="post" action={`/channels/${c.id}/reconnect`} class="stack">
            <Csrf token={csrf} />
            {props.network.fields.map((fl) => (
              <Input
                prefix={`rc-${c.id}`}
                name={`fields.${fl.name}`}
                label={fl.label}
                hint={fl.help}
                type={fl.secret ? "password" : "text"}
                value={
                  fl.secret ? "" : given(p, reconnectForm, `fields.${fl.name}`, c.settings[fl.name] ?? "")
                }
                errors={errorsOf(p, reconnectForm)}
                required={!fl.optional}
              />
            ))}
            <FormError
              errors={errorsOf(p, reconnectForm)}
              shown={props.network.fields.map((fl) => `fields.${fl.name}`)}
            />
            <button type="submit">Reconnect</button>
          </form>
        </details>
      ) : null}
    </div>
  );
}

function ChannelItem(props: { p: ChannelsProps; c: ChannelRow }) {
  const { p, c } = props;
  const st = STATUS[c.status] ?? { label: c.status, cls: "off" };
  const network = p.networks.find((n) => n.provider === c.provider);
  return (
    <li class={`chan chan-${c.status}`} id={`channel-${c.id}`}>
      <div class="chan-head">
        <Avatar name={c.display_name} provider={c.emulates ?? c.provider} />
        <div class="chan-who">
          <strong class="chan-name">{c.display_name}</strong>
          <span class="muted">
            {c.handle ? (
              c.profile_url ? (
                <a href={c.profile_url} rel="noopener noreferrer" target="_blank">
                  {c.handle}
                </a>
              ) : (
                c.handle
              )
            ) : null}
          </span>
          <span>
            <span class={`tag net net-${c.emulates ?? c.provider}`}>{networkLabel(c, p.names)}</span>{" "}
            <span class={`tag state-${st.cls}`}>{st.label}</span>
          </span>
        </div>
      </div>
      <p class="chan-check muted">
        {c.provider === "sandbox"
          ? `Connected ${when(c.created_at)}; a sandbox has no credentials to check.`
          : c.check_error
            ? `Last check ${when(c.checked_at)}: ${c.check_error}`
            : c.checked_at
              ? `Credentials last checked ${when(c.checked_at)}.`
              : "Not checked yet."}
        {c.status_note ? ` ${c.status_note}` : ""}
      </p>
      {p.checked?.id === c.id ? (
        <p class="alert ok" role="status" id={`checked-${c.id}`}>
          {CHECKED[p.checked.result] ?? p.checked.result}
        </p>
      ) : null}
      {p.canManage ? <ChannelActions p={p} c={c} network={network} /> : null}
    </li>
  );
}

function ConnectForms(props: { p: ChannelsProps }) {
  const p = props.p;
  if (!p.brands.length)
    return (
      <p class="empty" id="connect-no-brand">
        A channel belongs to a brand: <a href="/brands">create a brand</a> first.
      </p>
    );
  return (
    <ul class="cards connect-cards">
      {p.networks.map((n) => {
        const form = `connect:${n.provider}`;
        const errors = errorsOf(p, form);
        const prefix = `c-${n.provider}`;
        const sandbox = n.provider === "sandbox";
        const hasForm = n.fields.length > 0 || sandbox;
        return (
          <li class="card" id={`connect-${n.provider}`}>
            <h3>
              <span class={`avatar net-${n.provider}`} aria-hidden="true">
                {n.name[0]}
              </span>{" "}
              {sandbox ? "Sandbox channel" : n.name}
            </h3>
            {sandbox ? (
              <p class="muted">
                Stands in for a network: posts are checked against that network's rules and published to a
                sandbox page nobody else sees.
              </p>
            ) : null}
            {n.signIn ? (
              <p>
                <a class="button primary" href={`/connect#network-${n.provider}`} id={`signin-${n.provider}`}>
                  Connect with {n.name}
                </a>
              </p>
            ) : null}
            {hasForm ? (
              <details open={sandbox || !!errors}>
                <summary>
                  {sandbox ? "Choose what it emulates" : `Connect with ${n.name} credentials`}
                </summary>
                <form method="post" action="/channels" class="stack">
                  <Csrf token={p.f.csrf} />
                  <input type="hidden" name="provider" value={n.provider} />
                  <BrandSelect
                    prefix={prefix}
                    brands={p.brands}
                    value={given(p, form, "brand", p.brands[0]?.id ?? "")}
                    {...(errors ? { errors } : {})}
                  />
                  {sandbox ? (
                    <div class={errors?.emulates ? "field has-error" : "field"}>
                      <label for={`${prefix}-emulates`}>Emulates</label>
                      <select id={`${prefix}-emulates`} name="emulates">
                        {Object.entries(p.names)
                          .filter(([k]) => k !== "sandbox")
                          .map(([k, name]) => (
                            <option value={k} selected={given(p, form, "emulates", "bluesky") === k}>
                              {name}
                            </option>
                          ))}
                      </select>
                      {errors?.emulates ? <p class="error">{errors.emulates}</p> : null}
                    </div>
                  ) : null}
                  {n.fields.map((fl) => (
                    <Input
                      prefix={prefix}
                      name={`fields.${fl.name}`}
                      label={fl.label}
                      hint={fl.help}
                      type={fl.secret ? "password" : "text"}
                      value={fl.secret ? "" : given(p, form, `fields.${fl.name}`)}
                      errors={errors}
                      required={!fl.optional}
                    />
                  ))}
                  <FormError
                    errors={errors}
                    shown={["brand", "emulates", ...n.fields.map((fl) => `fields.${fl.name}`)]}
                  />
                  <button type="submit" class="primary" id={`connect-${n.provider}-submit`}>
                    Connect {sandbox ? "sandbox channel" : n.name}
                  </button>
                </form>
              </details>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

function Apps(props: { p: ChannelsProps }) {
  const p = props.p;
  const own = p.apps.filter((a) => a.provided_by === "org");
  const server = p.apps.filter((a) => a.provided_by === "server");
  const signInNetworks = Object.entries(p.names).filter(([k]) =>
    p.networks.some((n) => n.provider === k && n.signIn),
  );
  const newErrors = errorsOf(p, "app:new");
  return (
    <Section title="Developer apps" id="apps">
      <p class="muted">
        Signing in to {signInNetworks.map(([, name]) => name).join(", ")} goes through a developer app
        registered on the network's own developer site. The redirect URI to register is shown on{" "}
        <a href="/connect">Connect a network</a>.
      </p>
      {own.length + server.length === 0 ? (
        <p class="empty" id="apps-empty">
          No developer app yet. Add the org's own below.
        </p>
      ) : (
        <ul class="plain app-list" id="app-list">
          {server.map((a) => (
            <li id={`app-${a.id}`}>
              <span class="tag">{p.names[a.provider] ?? a.provider}</span> <strong>{a.name}</strong>{" "}
              <span class="muted">provided by the server</span>
            </li>
          ))}
          {own.map((a) => {
            const form = `app:${a.id}`;
            const errors = errorsOf(p, form);
            return (
              <li id={`app-${a.id}`}>
                <span class="tag">{p.names[a.provider] ?? a.provider}</span> <strong>{a.name}</strong>{" "}
                <span class="muted">client ID {a.client_id}</span>
                <details open={!!errors}>
                  <summary>Rename or remove</summary>
                  <form method="post" action={`/channels/apps/${a.id}/rename`} class="stack">
                    <Csrf token={p.f.csrf} />
                    <Input
                      prefix={`app-${a.id}`}
                      name="name"
                      label="Name"
                      value={given(p, form, "name", a.name)}
                      errors={errors}
                      required
                      maxlength={100}
                    />
                    <FormError errors={errors} shown={["name"]} />
                    <button type="submit">Rename</button>
                  </form>
                  <form
                    method="post"
                    action={`/channels/apps/${a.id}/remove`}
                    class="inline"
                    data-confirm={`Remove the app ${a.name}? Channels connected through it keep working until their sign-in needs renewing.`}
                  >
                    <Csrf token={p.f.csrf} />
                    <button type="submit" class="danger" id={`remove-app-${a.id}`}>
                      Remove app
                    </button>
                  </form>
                </details>
              </li>
            );
          })}
        </ul>
      )}
      <details open={!!newErrors} class="card">
        <summary>Add a developer app</summary>
        <form method="post" action="/channels/apps" class="stack" id="app-create">
          <Csrf token={p.f.csrf} />
          <div class="field">
            <label for="app-new-provider">Network</label>
            <select id="app-new-provider" name="provider">
              {signInNetworks.map(([k, name]) => (
                <option value={k} selected={given(p, "app:new", "provider") === k}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <Input
            prefix="app-new"
            name="name"
            label="Name"
            value={given(p, "app:new", "name")}
            errors={newErrors}
            required
            maxlength={100}
          />
          <Input
            prefix="app-new"
            name="client_id"
            label="Client ID"
            value={given(p, "app:new", "client_id")}
            errors={newErrors}
            required
          />
          <Input
            prefix="app-new"
            name="client_secret"
            label="Client secret"
            type="password"
            errors={newErrors}
            required
          />
          <FormError errors={newErrors} shown={["name", "client_id", "client_secret"]} />
          <button type="submit">Add app</button>
        </form>
      </details>
    </Section>
  );
}

export function ChannelsPage(p: ChannelsProps) {
  const reauth = p.channels.filter((c) => c.status === "needs_reauth");
  const brandsShown = p.brands.filter((b) => p.channels.some((c) => c.brand === b.id));
  return (
    <Layout f={p.f}>
      {reauth.length ? (
        <div class="alert warn" role="status" id="reauth-banner">
          <p>
            <strong>
              {reauth.length === 1 ? "1 channel needs" : `${reauth.length} channels need`} reconnecting:
            </strong>{" "}
            {reauth.map((c, i) => (
              <>
                {i ? ", " : ""}
                <a href={`#channel-${c.id}`}>{c.display_name}</a>
              </>
            ))}
            . Nothing is published to {reauth.length === 1 ? "it" : "them"} until then.
          </p>
        </div>
      ) : null}
      <p class="lead">
        {p.f.livemode
          ? "Live channels post to real networks."
          : "Test mode: sandbox channels stand in for networks and reach nobody."}{" "}
        Each channel belongs to one brand.
      </p>
      {p.channels.length === 0 ? (
        <p class="empty" id="channels-empty">
          No channels in {p.f.livemode ? "live" : "test"} mode yet.{" "}
          {p.canManage ? "Connect one below." : "Ask an admin of the org to connect one."}
        </p>
      ) : (
        brandsShown.map((b) => (
          <section class="brand-channels" aria-labelledby={`b-${b.id}`}>
            <h2 id={`b-${b.id}`}>{brandLabel(b)}</h2>
            <ul class="chan-list-full">
              {p.channels
                .filter((c) => c.brand === b.id)
                .map((c) => (
                  <ChannelItem p={p} c={c} />
                ))}
            </ul>
          </section>
        ))
      )}
      {p.canManage ? (
        <Section title={p.f.livemode ? "Connect a channel" : "Connect a sandbox channel"} id="connect">
          {!p.f.livemode ? (
            <p class="muted">
              Real networks are connected in live mode (switch mode at the top of the page).
            </p>
          ) : null}
          <ConnectForms p={p} />
        </Section>
      ) : null}
      {p.canManage && p.f.livemode ? <Apps p={p} /> : null}
    </Layout>
  );
}

export function DeleteChannelPage(props: {
  f: Frame;
  channel: ChannelRow;
  brand: BrandRef | null;
  network: string;
}) {
  const c = props.channel;
  return (
    <Layout f={props.f}>
      <div class="card danger-zone narrow" id="delete-channel">
        <p>
          Disconnect <strong>{c.display_name}</strong> ({props.network}
          {props.brand ? `, ${brandLabel(props.brand)}` : ""})?
        </p>
        <p>
          Posts waiting to go out on this channel are canceled for it; what was published stays on the
          network. Connecting the account again makes a new channel.
        </p>
        <form method="post" action={`/channels/${c.id}/delete`} class="inline">
          <Csrf token={props.f.csrf} />
          <button type="submit" class="danger" id="delete-confirm">
            Disconnect channel
          </button>
        </form>{" "}
        <a href="/channels">Cancel</a>
      </div>
    </Layout>
  );
}
