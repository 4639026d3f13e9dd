// /posts and /posts/<id>: the post list (status, brand and text filters, cursor paging) and a post's page, with
// retry, mark published and cancel. Thin over the domain calls /v1/posts, /v1/post_targets/<id>/… use, as the
// signed-in member; a refused change is shown on the page with its code.

import {
  type Attempt,
  type ChannelInfo,
  PostPage,
  type PostRow,
  PostsPage,
  TargetCard,
} from "../../../views/posts.tsx";
import type { Problems } from "../../../views/publishing.tsx";
import { brandChoices, getBrand } from "../../domain/brands/service.ts";
import { channelChoices, channelChoicesByIds } from "../../domain/channels/choices.ts";
import { cancelPost } from "../../domain/posts/cancel.ts";
import { deletePublished } from "../../domain/posts/delete-published.ts";
import { attemptsOfPost, getPost, listAttempts, listPosts } from "../../domain/posts/read.ts";
import { updatePost } from "../../domain/posts/update.ts";
import { markTargetPublished, retryTarget } from "../../domain/targets/resolve.ts";
import { notFound, type Problem, ServiceError } from "../../lib/errors.ts";
import { fragment, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const PAGE_SIZE = "20";
const FILTERS = ["status", "brand", "channel", "q"] as const;

function byParam(e: ServiceError, prefix = ""): Problems {
  const out: Problems = {};
  const list: Problem[] = e.errors ?? [{ code: e.code, message: e.message, param: e.param }];
  for (const p of list) {
    const key = prefix ? `${prefix}` : (p.param ?? "");
    out[key] = [...(out[key] ?? []), { code: p.code, message: p.message }];
  }
  return out;
}

/**
 * The channel picker's channels: the chosen brand's (a channel of another brand would match no post of it), else
 * the org's first 100. A brand's are read by the channels_org index; the org's are sorted first.
 */
async function channelsOf(w: Web, brand: string): Promise<ChannelInfo[]> {
  try {
    return await channelChoices(w.app, w.member!.actor, brand || undefined);
  } catch (e) {
    // An unknown brand in the URL: the list says so beside the filter (listPosts refuses it the same way).
    if (!brand || !(e instanceof ServiceError) || e.status !== 404) throw e;
    return channelChoices(w.app, w.member!.actor);
  }
}

async function list(w: Web) {
  const { app } = w;
  const actor = w.member!.actor;
  const q = w.url.searchParams;
  const filters = {
    status: q.get("status") ?? "",
    brand: q.get("brand") ?? "",
    channel: q.get("channel") ?? "",
    q: q.get("q") ?? "",
  };
  const suspended = w.member!.org.status === "suspended";
  const [brands, channels] = suspended
    ? [[], []]
    : await Promise.all([brandChoices(app, actor), channelsOf(w, filters.brand)]);
  let posts: PostRow[] = [];
  let older: string | null = null;
  let newer: string | null = null;
  let problems: Problems | undefined;
  let status = 200;
  if (!suspended) {
    const query: Record<string, string> = { limit: PAGE_SIZE };
    for (const k of FILTERS) if (filters[k] !== "") query[k] = filters[k];
    const after = q.get("starting_after");
    const before = q.get("ending_before");
    if (after) query.starting_after = after;
    if (before) query.ending_before = before;
    try {
      const env = await listPosts(app, actor, query);
      posts = env.data;
      // Newest first: the next page is older (after the last), the previous one newer (before the first).
      const link = (k: string, id: string) => {
        const u = new URLSearchParams();
        for (const f of FILTERS) if (filters[f]) u.set(f, filters[f]);
        u.set(k, id);
        return `/posts?${u}`;
      };
      const first = posts[0]?.id;
      const last = posts.at(-1)?.id;
      const paging = after !== null || before !== null;
      if (last && (before ? true : env.has_more)) older = link("starting_after", last);
      if (first && paging && (before ? env.has_more : true)) newer = link("ending_before", first);
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      problems = byParam(e);
      status = e.status;
    }
  }
  return render(
    w,
    <PostsPage
      f={frame(w, "Posts", "posts")}
      brands={brands}
      channels={channels}
      posts={posts}
      filters={filters}
      older={older}
      newer={newer}
      problems={problems}
    />,
    status,
  );
}

/** The channels of the post's targets (all on its brand's channels): only those the page names. */
async function targetChannels(w: Web, post: PostRow): Promise<ChannelInfo[]> {
  return channelChoicesByIds(
    w.app,
    w.member!.actor,
    post.targets.map((t) => t.channel),
  );
}

async function attemptsOf(w: Web, post: PostRow): Promise<Record<string, Attempt[]>> {
  return Object.fromEntries(await attemptsOfPost(w.app, w.member!.actor, post));
}

async function detail(w: Web, problems?: Problems, status = 200) {
  const { app } = w;
  const actor = w.member!.actor;
  const post = await getPost(app, actor, w.params.id ?? "");
  const [brand, channels, attempts] = await Promise.all([
    getBrand(app, actor, post.brand),
    targetChannels(w, post),
    attemptsOf(w, post),
  ]);
  const text = post.targets[0]?.parts[0] ?? "";
  const title = text.length > 60 ? `${text.slice(0, 60)}…` : text || "Post";
  return render(
    w,
    <PostPage
      f={frame(w, title, "posts")}
      post={post}
      brand={brand}
      attempts={attempts}
      channels={channels}
      problems={problems}
    />,
    status,
  );
}

/** One target's card, for its own polling; the post's status comes along out of band. */
async function targetCard(w: Web) {
  const { app } = w;
  const actor = w.member!.actor;
  const post = await getPost(app, actor, w.params.id ?? "");
  const target = post.targets.find((t) => t.id === w.params.tid);
  if (!target) throw notFound("No such target in this post.", "id");
  const [brand, channels, attempts] = await Promise.all([
    getBrand(app, actor, post.brand),
    channelChoicesByIds(app, actor, [target.channel]),
    listAttempts(app, actor, target.id),
  ]);
  return fragment(
    w,
    <TargetCard
      f={frame(w, "Post", "posts")}
      postId={post.id}
      target={target}
      attempts={attempts.data}
      channel={channels.find((c) => c.id === target.channel)}
      timezone={brand.timezone}
      postStatus={post.status}
    />,
  );
}

/** The target must belong to the post of the URL (another post's target looks missing). */
async function targetOfPost(w: Web): Promise<string> {
  const post = await getPost(w.app, w.member!.actor, w.params.id ?? "");
  const target = post.targets.find((t) => t.id === w.params.tid);
  if (!target) throw notFound("No such target in this post.", "id");
  return target.id;
}

async function act(
  w: Web,
  change: () => Promise<unknown>,
  flash: "post_canceled" | "target_retried" | "target_marked" | "post_updated" | "post_deleted",
  param?: string,
) {
  try {
    await change();
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 404 || e.status === 403) throw e;
    return detail(w, byParam(e, param), e.status);
  }
  setFlash(w, flash);
  return redirect(w, `/posts/${w.params.id}`);
}

const cancel = (w: Web) =>
  act(w, () => cancelPost(w.app, w.member!.actor, w.params.id ?? ""), "post_canceled");

const retry = (w: Web) =>
  act(w, async () => retryTarget(w.app, w.member!.actor, await targetOfPost(w)), "target_retried");

const mark = (w: Web) => {
  const permalink = (w.form.get("permalink") ?? "").trim();
  return act(
    w,
    async () =>
      markTargetPublished(w.app, w.member!.actor, await targetOfPost(w), permalink ? { permalink } : {}),
    "target_marked",
    `permalink.${w.params.tid}`,
  );
};

/** The edit form: the text (content.body) and the first comment; "Save and schedule" schedules a draft. */
const editPost = (w: Web) => {
  const comment = (w.form.get("first_comment") ?? "").trim();
  const input: Record<string, unknown> = {
    content: { body: w.form.get("body") ?? "" },
    first_comment: comment === "" ? null : comment,
  };
  if (w.form.get("schedule") === "1") input.draft = false;
  return act(w, () => updatePost(w.app, w.member!.actor, w.params.id ?? "", input), "post_updated");
};

/** Deleting from the networks: each target's result shows on its card (deleted_at), a failure on the page. */
const deleteFromNetworks = async (w: Web) => {
  let failed: string[] = [];
  const r = await act(
    w,
    async () => {
      const out = await deletePublished(w.app, w.member!.actor, w.params.id ?? "");
      failed = out.results.filter((x) => x.result !== "deleted").map((x) => `${x.provider}: ${x.message}`);
    },
    "post_deleted",
  );
  if (failed.length === 0) return r;
  return detail(w, { "": failed.map((message) => ({ code: "delete_failed", message })) }, 200);
};

export const postRoutes: WebRoute[] = [
  { method: "GET", path: "/posts", access: "member", org: "read", handler: list },
  { method: "GET", path: "/posts/:id", access: "member", org: "read", handler: (w) => detail(w) },
  { method: "GET", path: "/posts/:id/targets/:tid", access: "member", org: "read", handler: targetCard },
  { method: "POST", path: "/posts/:id/cancel", access: "member", org: "write", handler: cancel },
  { method: "POST", path: "/posts/:id/edit", access: "member", org: "write", handler: editPost },
  {
    method: "POST",
    path: "/posts/:id/delete-published",
    access: "member",
    org: "write",
    handler: deleteFromNetworks,
  },
  { method: "POST", path: "/posts/:id/targets/:tid/retry", access: "member", org: "write", handler: retry },
  {
    method: "POST",
    path: "/posts/:id/targets/:tid/mark-published",
    access: "member",
    org: "write",
    handler: mark,
  },
];
