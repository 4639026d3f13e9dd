// Home: the org at a glance — its brands, their channels in this mode, and the next scheduled posts.
import type { Frame } from "./frame.ts";
import { Layout } from "./layout.tsx";
import { brandLabel, Section, whenIn } from "./parts.tsx";

export interface HomeBrand {
  id: string;
  name: string;
  slug: string;
  timezone: string;
}
export interface HomeChannel {
  id: string;
  brand: string;
  provider: string;
  /** The network a sandbox channel checks posts against. */
  emulates: string | null;
  display_name: string | null;
  handle: string | null;
  status: string;
}
export interface HomePost {
  id: string;
  brand: string;
  publish_at: string | null;
  status: string;
  text: string;
  channels: string[];
}

interface HomeProps {
  f: Frame;
  /** The person signs in with a password that was generated and printed for them (bootstrap, operator reset). */
  printedPassword?: boolean;
  brands: HomeBrand[];
  channels: HomeChannel[];
  posts: HomePost[];
}

/**
 * What to do next on a home with nothing scheduled (a fresh install, or a new mode): connect a channel when the
 * mode has none, then write a post. Links go only to pages this role can use; connecting a channel has no
 * dashboard page, so the step says how (an API key and POST /v1/channels) or whom to ask.
 */
function NextSteps(props: HomeProps) {
  const f = props.f;
  const mode = f.livemode ? "live" : "test";
  const canKeys = f.scopes.includes("keys:write");
  const canWrite = f.scopes.includes("posts:write");
  const active = props.channels.some((c) => c.status === "active");
  return (
    <Section title="Next steps" id="next-steps">
      <ol class="steps">
        {active ? null : (
          <li id="step-channel">
            <strong>Connect a channel</strong> in {mode} mode.{" "}
            {f.livemode
              ? "Live channels post to real networks."
              : "In test mode a sandbox channel stands in for a network: it checks posts against that network's rules and reaches nobody."}{" "}
            {f.scopes.includes("channels:write") ? (
              <>
                <a href="/channels">Connect one on Channels</a> (or with the API:{" "}
                <code>POST /v1/channels</code>
                {canKeys ? (
                  <>
                    {" "}
                    with an <a href="/api-keys">API key</a>
                  </>
                ) : null}
                ).
              </>
            ) : (
              "Ask an admin of the org to connect one."
            )}
          </li>
        )}
        <li id="step-post">
          <strong>Write a post</strong>
          {canWrite ? (
            <>
              : <a href="/posts/new">open the composer</a>, pick channels, and see what each network will
              receive before it goes out.
            </>
          ) : (
            ": your role reads posts; an editor or admin writes them."
          )}
        </li>
      </ol>
    </Section>
  );
}

export function HomePage(props: HomeProps) {
  const brandName = new Map(props.brands.map((b) => [b.id, brandLabel(b)]));
  const brandZone = new Map(props.brands.map((b) => [b.id, b.timezone]));
  return (
    <Layout f={props.f}>
      {props.printedPassword ? (
        <div class="alert warn" role="status" id="printed-password">
          <p>
            <strong>Choose your own password.</strong> You signed in with the one the server printed when your
            account was set up; it may still be in a terminal's scrollback or an install log.{" "}
            <a href="/account/password">Set a new password</a>.
          </p>
        </div>
      ) : null}
      <p class="lead">
        You are signed in to <strong id="home-org">{props.f.org?.name}</strong> as {props.f.org?.role}.
      </p>
      <Section title="Brands and channels">
        {props.brands.length === 0 ? <p>No brands yet.</p> : null}
        <ul class="cards" id="brands">
          {props.brands.map((b) => {
            const chans = props.channels.filter((c) => c.brand === b.id);
            return (
              <li class="card">
                <h3>{b.name}</h3>
                <p class="muted">
                  {b.slug} · {b.timezone}
                </p>
                {chans.length ? (
                  <ul class="plain">
                    {chans.map((c) => (
                      <li>
                        <span class="tag">{c.emulates ? `${c.provider} · ${c.emulates}` : c.provider}</span>{" "}
                        {c.display_name ?? c.handle ?? c.id}{" "}
                        {c.status === "active" ? null : <span class="tag warn">{c.status}</span>}
                        {c.display_name && c.handle ? <span class="muted handle">{c.handle}</span> : null}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p class="muted">No channels in {props.f.livemode ? "live" : "test"} mode.</p>
                )}
              </li>
            );
          })}
        </ul>
      </Section>
      {props.posts.length === 0 ? <NextSteps {...props} /> : null}
      <Section title="Next scheduled posts">
        {props.posts.length === 0 ? (
          <p>Nothing is scheduled in {props.f.livemode ? "live" : "test"} mode.</p>
        ) : (
          <section class="table-wrap" tabindex={0} aria-label="Next scheduled posts (scrolls sideways)">
            <table id="posts">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Brand</th>
                  <th scope="col">Channels</th>
                  <th scope="col">Text</th>
                </tr>
              </thead>
              <tbody>
                {props.posts.map((p) => (
                  <tr>
                    <td class="when">{whenIn(p.publish_at, brandZone.get(p.brand) ?? "UTC")}</td>
                    <td>{brandName.get(p.brand) ?? p.brand}</td>
                    <td class="channels">{p.channels.join(", ")}</td>
                    <td class="text">
                      <a href={`/posts/${p.id}`}>{p.text}</a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </Section>
    </Layout>
  );
}
