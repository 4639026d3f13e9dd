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

export function HomePage(props: {
  f: Frame;
  brands: HomeBrand[];
  channels: HomeChannel[];
  posts: HomePost[];
}) {
  const brandName = new Map(props.brands.map((b) => [b.id, brandLabel(b)]));
  const brandZone = new Map(props.brands.map((b) => [b.id, b.timezone]));
  return (
    <Layout f={props.f}>
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
      <Section title="Next scheduled posts">
        {props.posts.length === 0 ? (
          <p>
            Nothing is scheduled in {props.f.livemode ? "live" : "test"} mode.{" "}
            <a href="/posts/new">Write a post</a>.
          </p>
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
