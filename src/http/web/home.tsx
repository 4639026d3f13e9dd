// GET /home: the org, its brands and channels in this mode, and the next scheduled posts (the domain's own list
// functions, called as the signed-in member).

import { HomePage, type HomePost } from "../../../views/home.tsx";
import { listBrands } from "../../domain/brands/service.ts";
import { listChannels } from "../../domain/channels/service.ts";
import { printedPasswordInUse } from "../../domain/identity/users/service.ts";
import { listPosts } from "../../domain/posts/read.ts";
import { frame, render, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const channelLabel = (t: { channel_name: string | null; provider: string }, network: string | undefined) =>
  `${t.channel_name ?? t.provider} (${network ?? t.provider})`;

async function home(w: Web) {
  // A suspended org never gets here: the route is a read, so its members see the notice (index.tsx).
  const actor = w.member!.actor;
  const [brands, channels, posts, printed] = await Promise.all([
    listBrands(w.app, actor, { limit: "100" }),
    listChannels(w.app, actor, { limit: "100" }),
    listPosts(w.app, actor, { status: "scheduled", limit: "100" }),
    printedPasswordInUse(w.app, w.session!.user_id!),
  ]);
  // Two channels of a brand often share a display name (one account on two networks): name the network too.
  const network = new Map(channels.data.map((c) => [c.id, c.emulates ?? c.provider]));
  const next: HomePost[] = posts.data
    .filter((p) => p.publish_at)
    .sort((a, b) => a.publish_at!.localeCompare(b.publish_at!))
    .slice(0, 10)
    .map((p) => ({
      id: p.id,
      brand: p.brand,
      publish_at: p.publish_at,
      status: p.status,
      text: p.targets[0]?.parts.join("\n\n") ?? "",
      channels: p.targets.map((t) => channelLabel(t, network.get(t.channel))),
    }));
  return render(
    w,
    <HomePage
      f={frame(w, "Home", "home")}
      brands={brands.data}
      channels={channels.data}
      posts={next}
      printedPassword={printed}
    />,
  );
}

export const homeRoutes: WebRoute[] = [
  { method: "GET", path: "/home", access: "member", org: "read", handler: home },
];
