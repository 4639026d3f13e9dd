// Connecting channels by signing in to a network through a developer app: the networks with the apps on offer
// (the org's own first, then the server's) and the redirect URI to register; the org's own apps (add one); the
// hand-over page to the network; and the page where the person picks which accounts become channels.
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { Csrf, Field, FormError, Section } from "./parts.tsx";

export interface ConnectApp {
  id: string;
  provider: string;
  name: string;
  provided_by: "org" | "server";
  client_id: string | null;
  redirect_uri: string;
}

export interface ConnectNetwork {
  provider: string;
  name: string;
  redirect_uri: string;
  apps: ConnectApp[];
}

export interface ConnectProps {
  f: Frame;
  networks: ConnectNetwork[];
  brands: { id: string; name: string }[];
  /** The channel being reconnected, when the page was opened for one. */
  channel: { id: string; provider: string; brand: string; display_name: string } | null;
  canManage: boolean;
  form: { provider: string; name: string; client_id: string };
  errors?: FieldErrors | undefined;
}

/** A redirect URI to copy: it may break after each "/" on a narrow screen; copying gives the address unchanged. */
function Uri(props: { uri: string }) {
  const parts = props.uri.split("/");
  return (
    <code class="redirect-uri">{parts.map((p, i) => (i < parts.length - 1 ? [p, "/", <wbr />] : p))}</code>
  );
}

function AppChoice(props: { n: ConnectNetwork }) {
  return (
    <div class="field">
      <label for={`app-${props.n.provider}`}>Developer app</label>
      <select id={`app-${props.n.provider}`} name="app">
        {props.n.apps.map((a) => (
          <option value={a.id}>
            {a.provided_by === "server" ? `${a.name} (provided by the server)` : a.name}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ConnectPage(props: ConnectProps) {
  const e = props.errors;
  return (
    <Layout f={props.f}>
      <FormError errors={e} shown={["name", "client_id", "client_secret"]} />
      {!props.f.livemode ? (
        <p class="alert error" id="connect-test-mode">
          Signing in to a network connects live channels: switch to live mode first.
        </p>
      ) : null}
      <Section
        title={props.channel ? `Reconnect ${props.channel.display_name}` : "Connect by signing in"}
        id="networks"
      >
        <ul class="cards">
          {props.networks
            .filter((n) => !props.channel || n.provider === props.channel.provider)
            .map((n) => (
              <li class="card" id={`network-${n.provider}`}>
                <h3>{n.name}</h3>
                {n.apps.length === 0 ? (
                  <p class="muted">
                    No developer app yet. Register one on the network's developer site with the redirect URI{" "}
                    <Uri uri={n.redirect_uri} />, then add it below.
                  </p>
                ) : (
                  <form method="post" action={`/connect/${n.provider}/start`}>
                    <Csrf token={props.f.csrf} />
                    {props.channel ? <input type="hidden" name="channel" value={props.channel.id} /> : null}
                    <div class="field">
                      <label for={`brand-${n.provider}`}>Brand</label>
                      <select id={`brand-${n.provider}`} name="brand">
                        {props.brands.map((b) => (
                          <option value={b.id} selected={props.channel?.brand === b.id}>
                            {b.name}
                          </option>
                        ))}
                      </select>
                    </div>
                    <AppChoice n={n} />
                    <button type="submit" id={`signin-${n.provider}`}>
                      Sign in with {n.name}
                    </button>
                  </form>
                )}
              </li>
            ))}
        </ul>
      </Section>
      {props.canManage && !props.channel ? (
        <Section title="Developer apps" id="apps">
          <ul class="plain" id="app-list">
            {props.networks.flatMap((n) =>
              n.apps.map((a) => (
                <li>
                  <span class="tag">{n.name}</span> {a.name}{" "}
                  {a.provided_by === "server" ? (
                    <span class="muted">provided by the server</span>
                  ) : (
                    <span class="muted">client ID {a.client_id}</span>
                  )}
                </li>
              )),
            )}
          </ul>
          <form method="post" action="/connect/apps" class="card" id="app-create">
            <Csrf token={props.f.csrf} />
            <div class="field">
              <label for="f-provider">Network</label>
              <select id="f-provider" name="provider">
                {props.networks.map((n) => (
                  <option value={n.provider} selected={props.form.provider === n.provider}>
                    {n.name}
                  </option>
                ))}
              </select>
            </div>
            <p class="hint">
              Register this redirect URI (callback URL) with the app on the network's developer site:{" "}
              {props.networks.map((n) => (
                <span>
                  {n.name}: <Uri uri={n.redirect_uri} />{" "}
                </span>
              ))}
            </p>
            <Field name="name" label="Name" value={props.form.name} errors={e} maxlength={100} required />
            <Field name="client_id" label="Client ID" value={props.form.client_id} errors={e} required />
            <Field
              name="client_secret"
              label="Client secret"
              type="password"
              errors={e}
              required
              autocomplete="off"
            />
            <button type="submit">Add app</button>
          </form>
        </Section>
      ) : null}
    </Layout>
  );
}

/** The hand-over to the network's sign-in page (a refresh, since the form's own origin is all it may post to). */
export function LeavingPage(props: { f: Frame; network: string; url: string }) {
  return (
    <Layout f={props.f}>
      <meta http-equiv="refresh" content={`0;url=${props.url}`} />
      <p>
        Taking you to {props.network} to sign in…{" "}
        <a href={props.url} id="continue">
          Continue
        </a>
      </p>
    </Layout>
  );
}

export interface ChooseProps {
  f: Frame;
  id: string;
  network: string;
  accounts: {
    key: string;
    display_name: string | null;
    handle: string | null;
    channel: string | null;
  }[];
  errors?: FieldErrors | undefined;
}

export function ChoosePage(props: ChooseProps) {
  return (
    <Layout f={props.f}>
      <Section title={`Pick the ${props.network} accounts to connect`} id="choose">
        <form method="post" action={`/connect/choose/${props.id}`}>
          <Csrf token={props.f.csrf} />
          <FormError errors={props.errors} />
          <fieldset>
            <legend>Accounts</legend>
            {props.accounts.map((a) => (
              <label>
                <input type="checkbox" name="accounts" value={a.key} checked={props.accounts.length === 1} />{" "}
                {a.display_name ?? a.key} {a.handle ? <span class="muted">{a.handle}</span> : null}
                {a.channel ? <span class="tag">reconnects {a.channel}</span> : null}
              </label>
            ))}
          </fieldset>
          <button type="submit" id="connect-chosen">
            Connect
          </button>
        </form>
      </Section>
    </Layout>
  );
}

export function ConnectedPage(props: {
  f: Frame;
  network: string;
  channels: { id: string; display_name: string; handle: string | null }[];
}) {
  return (
    <Layout f={props.f}>
      <Section title={`Connected to ${props.network}`} id="connected">
        <ul class="plain" id="connected-channels">
          {props.channels.map((c) => (
            <li data-channel={c.id}>
              {c.display_name} {c.handle ? <span class="muted">{c.handle}</span> : null} <code>{c.id}</code>
            </li>
          ))}
        </ul>
        <p>
          <a href="/home">Back to home</a>
        </p>
      </Section>
    </Layout>
  );
}
