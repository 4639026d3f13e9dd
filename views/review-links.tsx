// The brand page's "Client review links" section: make a link (its address shown once, right here), see the
// brand's links in this mode, withdraw one.
import type { FieldErrors, Frame } from "./frame.ts";
import { Csrf, FormError, Section, whenIn } from "./parts.tsx";

export interface ReviewLinkRow {
  id: string;
  name: string;
  status: "active" | "withdrawn" | "expired";
  expires_at: string;
  withdrawn_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface ReviewLinksState {
  links: ReviewLinkRow[];
  /** The new link's address, shown once after it is made. */
  created?: { name: string; url: string } | null;
  errors?: FieldErrors | undefined;
  name?: string;
}

const STATUS = { active: "Active", withdrawn: "Withdrawn", expired: "Expired" } as const;

export function ReviewLinksSection(props: {
  f: Frame;
  brandId: string;
  timezone: string;
  s: ReviewLinksState;
}) {
  const { f, s } = props;
  const writable = f.org?.status === "active";
  return (
    <Section title="Client review links" id="review-links">
      <p class="muted">
        A client opens a review link without an account, sees this brand's posts waiting for approval in{" "}
        {f.livemode ? "live" : "test"} mode as each network will show them, and approves or rejects each with
        a note. The decision is recorded as the link's. A link works for at most 30 days and stops at once
        when withdrawn.
      </p>
      {s.created ? (
        <div class="alert ok" role="status" id="review-link-created">
          <p>
            Review link for <strong>{s.created.name}</strong>: send it to them now; it is shown only this
            once.
          </p>
          <p class="secret" id="review-link-url">
            {s.created.url}
          </p>
        </div>
      ) : null}
      <form
        method="post"
        action={`/brands/${props.brandId}/review-links`}
        class="card stack"
        id="review-link-new"
      >
        <Csrf token={f.csrf} />
        <FormError errors={s.errors} shown={["name", "expires_at"]} />
        {/* Not the shared Field: the brand form above has its own `name` field (and its id). */}
        <div class={s.errors?.name ? "field has-error" : "field"}>
          <label for="f-review-name">Who it is for</label>
          <p class="hint" id="f-review-name-hint">
            Shown to you in this list and to the client on the page.
          </p>
          <input
            id="f-review-name"
            name="name"
            type="text"
            value={s.name ?? ""}
            required
            maxlength={100}
            aria-invalid={s.errors?.name ? "true" : undefined}
            aria-describedby={
              s.errors?.name ? "f-review-name-hint f-review-name-error" : "f-review-name-hint"
            }
          />
          {s.errors?.name ? (
            <p class="error" id="f-review-name-error">
              {s.errors.name}
            </p>
          ) : null}
        </div>
        <div class="field">
          <label for="f-days">Works for</label>
          <select id="f-days" name="days">
            <option value="1">1 day</option>
            <option value="7">7 days</option>
            <option value="14">14 days</option>
            <option value="30" selected>
              30 days
            </option>
          </select>
        </div>
        <button type="submit" class="primary" id="review-link-create" disabled={!writable}>
          Make review link
        </button>
      </form>
      {s.links.length === 0 ? (
        <p class="muted" id="review-links-empty">
          No review links for this brand in {f.livemode ? "live" : "test"} mode.
        </p>
      ) : (
        <div class="table-wrap">
          <table id="review-links-table">
            <caption class="visually-hidden">Client review links</caption>
            <thead>
              <tr>
                <th scope="col">For</th>
                <th scope="col">Status</th>
                <th scope="col">Works until</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {s.links.map((l) => (
                <tr id={`review-link-${l.id}`}>
                  <td>{l.name}</td>
                  <td>
                    <span class={`tag status-${l.status}`}>{STATUS[l.status]}</span>
                  </td>
                  <td>{whenIn(l.expires_at, props.timezone)}</td>
                  <td>{l.last_used_at ? whenIn(l.last_used_at, props.timezone) : "Never"}</td>
                  <td>
                    {l.status === "active" ? (
                      <form
                        method="post"
                        action={`/brands/${props.brandId}/review-links/${l.id}/withdraw`}
                        class="inline"
                      >
                        <Csrf token={f.csrf} />
                        <button type="submit" class="danger" disabled={!writable}>
                          Withdraw
                        </button>
                      </form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
