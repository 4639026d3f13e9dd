// API keys of the org in this mode: create (sudo mode; the secret is shown once), roll with an overlap, revoke.

import { ConfirmPassword } from "./confirm.tsx";
import type { FieldErrors, Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { brandLabel, Csrf, Field, FormError, Section, when } from "./parts.tsx";

export interface KeyRow {
  id: string;
  name: string;
  hint: string;
  scopes: string[];
  brand: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface KeysProps {
  f: Frame;
  sudo: boolean;
  keys: KeyRow[];
  brands: { id: string; name: string; slug: string }[];
  /**
   * Scopes the member may put on a key: integration ones, then administrative ones, each opening something on
   * this install; then those the spec names for features not here yet, listed but not offered.
   */
  grantable: { integration: string[]; admin: string[]; coming: string[] };
  created: { name: string; secret: string; rolled: boolean } | null;
  form: { name: string; scopes: string[]; brand: string; expires: string };
  errors?: FieldErrors | undefined;
  now: number;
}

const OVERLAPS = [0, 1, 24, 72, 168];

function status(k: KeyRow, now: number) {
  if (k.revoked_at) return "revoked";
  if (k.expires_at && Date.parse(k.expires_at) <= now) return "expired";
  return "active";
}

function Scopes(props: { legend: string; scopes: string[]; checked: string[]; hint: string }) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      <p class="hint">{props.hint}</p>
      {props.scopes.map((s) => (
        <label>
          <input type="checkbox" name="scopes" value={s} checked={props.checked.includes(s)} /> {s}
        </label>
      ))}
    </fieldset>
  );
}

function CreateForm(props: KeysProps) {
  const e = props.errors;
  return (
    <form method="post" action="/api-keys" class="card" id="key-create">
      <Csrf token={props.f.csrf} />
      <FormError errors={e} shown={["name", "scopes", "brand", "expires_at"]} />
      <Field name="name" label="Name" value={props.form.name} errors={e} maxlength={100} required />
      <Scopes
        legend="Integration scopes"
        scopes={props.grantable.integration}
        checked={props.form.scopes}
        hint="Tick none for full integration access. Ticking any limits the key to what is ticked."
      />
      {props.grantable.admin.length ? (
        <Scopes
          legend="Administrative scopes"
          scopes={props.grantable.admin}
          checked={props.form.scopes}
          hint="Held only when ticked."
        />
      ) : null}
      {props.grantable.coming.length ? (
        <p class="hint" id="scopes-coming">
          Coming, not on this install yet: {props.grantable.coming.join(", ")}.
        </p>
      ) : null}
      {e?.scopes ? (
        <p class="error" id="f-scopes-error">
          {e.scopes}
        </p>
      ) : null}
      <div class={e?.brand ? "field has-error" : "field"}>
        <label for="f-brand">Brand</label>
        <select id="f-brand" name="brand">
          <option value="">Every brand</option>
          {props.brands.map((b) => (
            <option value={b.id} selected={props.form.brand === b.id}>
              {brandLabel(b)}
            </option>
          ))}
        </select>
        {e?.brand ? <p class="error">{e.brand}</p> : null}
      </div>
      <Field
        name="expires_at"
        label="Expires on (optional, end of that day UTC)"
        type="date"
        value={props.form.expires}
        errors={e}
      />
      <button type="submit" class="primary">
        Create {props.f.livemode ? "live" : "test"} key
      </button>
    </form>
  );
}

export function ApiKeysPage(props: KeysProps) {
  const brandName = new Map(props.brands.map((b) => [b.id, brandLabel(b)]));
  return (
    <Layout f={props.f}>
      {props.created ? (
        <div class="alert ok" role="status" id="key-created">
          <p>
            <strong>
              {props.created.rolled ? "Rolled" : "Created"} “{props.created.name}”. Copy the key now: it is
              not shown again.
            </strong>
          </p>
          <p class="secret" id="key-secret">
            {props.created.secret}
          </p>
        </div>
      ) : null}
      {props.sudo ? null : <FormError errors={props.errors} shown={["password"]} />}
      <Section title={`${props.f.livemode ? "Live" : "Test"} keys`}>
        {props.keys.length === 0 ? <p>No keys in this mode yet.</p> : null}
        {props.keys.length ? (
          <section class="table-wrap" tabindex={0} aria-label="API keys (scrolls sideways)">
            <table id="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Brand</th>
                  <th scope="col">Created / last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {props.keys.map((k) => {
                  const st = status(k, props.now);
                  const actions = (st === "active" && props.sudo) || !k.revoked_at;
                  return (
                    <>
                      <tr class={actions ? "has-actions" : undefined}>
                        <td class="text">{k.name}</td>
                        <td>
                          <code>{k.hint}</code>
                        </td>
                        <td>{k.scopes.length ? k.scopes.join(", ") : "full integration access"}</td>
                        <td>{k.brand ? (brandName.get(k.brand) ?? k.brand) : "every brand"}</td>
                        <td class="when">
                          {when(k.created_at)}
                          <br />
                          <span class="muted">{k.last_used_at ? when(k.last_used_at) : "never used"}</span>
                        </td>
                        <td class="when">{k.expires_at ? when(k.expires_at) : "never"}</td>
                        <td>{st}</td>
                      </tr>
                      {/* A row of its own under the key, starting at the left edge: however wide the columns
                          above, every action is in view without scrolling the table sideways. */}
                      {actions ? (
                        <tr class="row-actions">
                          <td colspan={7}>
                            <div class="actions">
                              {st === "active" && props.sudo ? (
                                <form method="post" action={`/api-keys/${k.id}/roll`} class="inline">
                                  <Csrf token={props.f.csrf} />
                                  <label for={`overlap-${k.id}`} class="muted">
                                    Old key works for
                                  </label>
                                  <select id={`overlap-${k.id}`} name="overlap_hours">
                                    {OVERLAPS.map((h) => (
                                      <option value={String(h)} selected={h === 24}>
                                        {h} h
                                      </option>
                                    ))}
                                  </select>
                                  <button type="submit" aria-label={`Roll key ${k.name}`}>
                                    Roll
                                  </button>
                                </form>
                              ) : null}
                              {k.revoked_at ? null : (
                                <form
                                  method="post"
                                  action={`/api-keys/${k.id}/revoke`}
                                  class="inline"
                                  data-confirm={`Revoke the key “${k.name}” (${k.hint})? Whatever uses it stops working at once.`}
                                >
                                  <Csrf token={props.f.csrf} />
                                  <button type="submit" class="danger" aria-label={`Revoke key ${k.name}`}>
                                    Revoke
                                  </button>
                                </form>
                              )}
                            </div>
                          </td>
                        </tr>
                      ) : null}
                    </>
                  );
                })}
              </tbody>
            </table>
          </section>
        ) : null}
      </Section>
      <Section title="Create a key">
        {props.sudo ? (
          <CreateForm {...props} />
        ) : (
          <ConfirmPassword
            csrf={props.f.csrf}
            back="/api-keys"
            errors={props.errors}
            why="Creating and rolling API keys needs a recent password confirmation."
          />
        )}
      </Section>
    </Layout>
  );
}
