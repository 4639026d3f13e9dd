// Bluesky (AT Protocol) through @atproto/api, every request through the guarded fetch. Idempotent: each part's
// record key is derived from the target and part (rkey.ts), and each part is looked up before it is created, so a
// retry after an uncertain attempt finds the record instead of posting twice. Threads are reply chains (root and
// parent strong references); links get facets (UTF-8 byte offsets) and the first link of a part a link card;
// images or a video are uploaded as blobs and embedded (media.ts), in place of the link card.
import type { AtpAgent } from "@atproto/api";
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  ConnectInput,
  ConnectOutcome,
  DeleteOutcome,
  EngagementOutcome,
  FindOutcome,
  PublishedPart,
  PublishInput,
  PublishOutcome,
  RemoteInput,
} from "../adapter.ts";
import { findLinks } from "../text/links.ts";
import { linkCard } from "./card.ts";
import { classify, isAuthError, isXrpcError } from "./errors.ts";
import { mediaEmbed, refusal } from "./media.ts";
import { blueskyFacets } from "./richtext.ts";
import { recordKey } from "./rkey.ts";
import { type Credentials, credentialsOf, forgetSession, signedIn } from "./session.ts";
import { isVideo } from "./video.ts";

const POST = "app.bsky.feed.post";
interface Ref {
  uri: string;
  cid: string;
}

export const profileUrl = (handle: string) => `https://bsky.app/profile/${handle}`;
export const postUrl = (handle: string, rkey: string) => `${profileUrl(handle)}/post/${rkey}`;
/** The record key at the end of an at:// URI. */
const rkeyOf = (uri: string) => uri.slice(uri.lastIndexOf("/") + 1);

/** Runs `fn` signed in; a refused session is dropped and signed in again once (the password may still be good). */
async function withAgent<T>(app: App, c: Credentials, fn: (agent: AtpAgent) => Promise<T>): Promise<T> {
  const agent = await signedIn(app, c);
  try {
    return await fn(agent);
  } catch (e) {
    if (!isAuthError(e)) throw e;
    forgetSession(app, c);
    return fn(await signedIn(app, c));
  }
}

/** The record at our key for this part, or null when there is none. */
async function lookUp(
  agent: AtpAgent,
  repo: string,
  rkey: string,
): Promise<{ ref: Ref; text: string } | null> {
  try {
    const r = await agent.com.atproto.repo.getRecord({ repo, collection: POST, rkey });
    return {
      ref: { uri: r.data.uri, cid: r.data.cid ?? "" },
      text: String((r.data.value as { text?: unknown }).text ?? ""),
    };
  } catch (e) {
    if (isXrpcError(e) && e.error === "RecordNotFound") return null;
    throw e;
  }
}

async function connect(app: App, input: ConnectInput): Promise<ConnectOutcome> {
  const c = credentialsOf(input.settings, input.secrets);
  try {
    forgetSession(app, c);
    const agent = await signedIn(app, c);
    const session = agent.session!;
    // The display name is in the profile record of the account's own repo (no AppView needed); none is fine.
    let displayName: string | null = null;
    try {
      const r = await agent.com.atproto.repo.getRecord({
        repo: session.did,
        collection: "app.bsky.actor.profile",
        rkey: "self",
      });
      const name = (r.data.value as { displayName?: unknown }).displayName;
      if (typeof name === "string" && name.trim() !== "") displayName = name.trim();
    } catch {
      // No profile record yet.
    }
    return {
      kind: "connected",
      account: {
        display_name: displayName ?? session.handle,
        handle: session.handle,
        profile_url: profileUrl(session.handle),
      },
    };
  } catch (e) {
    const o = classify(e, false);
    const message = "message" in o ? o.message : "unexpected answer";
    if (o.kind === "auth_revoked" || o.kind === "rejected") return { kind: "rejected", message };
    return { kind: "unavailable", message };
  }
}

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  if (!input.livemode)
    return {
      kind: "rejected",
      code: "provider_unsupported",
      message: "Bluesky is reached in live mode only.",
    };
  // Refused before anything is sent: a post is never published without the media it was written with.
  for (const part of input.parts) {
    const why = refusal(part.media);
    if (why) return { kind: "rejected", code: "media_rejected", message: why };
  }
  const c = credentialsOf(input.channel.settings, input.channel.secrets);
  let writing = false;
  // While the video is uploaded: the PDS refusing the file is the medium's refusal (media_rejected).
  let uploadingVideo = false;
  try {
    return await withAgent(app, c, async (agent) => {
      const { did, handle } = agent.session!;
      const refs = new Map<number, Ref>();
      const done = new Map(input.done.map((p) => [p.index, p]));
      const parts = [...input.parts].sort((a, b) => a.index - b.index);
      const refOf = async (index: number): Promise<Ref> => {
        const known = refs.get(index);
        if (known) return known;
        const found = await lookUp(agent, did, recordKey(input.targetId, index));
        if (!found) throw new Error(`part ${index + 1} was saved as posted but is not on the network`);
        refs.set(index, found.ref);
        return found.ref;
      };
      for (const part of parts) {
        if (done.has(part.index)) continue;
        if (input.signal.aborted)
          return { kind: "transient", message: "Stopped before the next part was sent." };
        const rkey = recordKey(input.targetId, part.index);
        const rich = blueskyFacets(part.text);
        // Looked up first: an earlier attempt may have created it even though its answer was lost.
        const existing = await lookUp(agent, did, rkey);
        let ref: Ref;
        if (existing) {
          if (existing.text !== rich.text)
            return {
              kind: "rejected",
              code: "duplicate",
              message: `Record key ${rkey} already holds another post on this account; nothing was posted.`,
            };
          ref = existing.ref;
        } else {
          const record: Record<string, unknown> = {
            $type: POST,
            text: rich.text,
            createdAt: new Date(app.clock.now()).toISOString(),
          };
          if (rich.facets.length) record.facets = rich.facets;
          if (part.index > 0) {
            const root = await refOf(parts[0]!.index);
            const parent = await refOf(part.index - 1);
            record.reply = { root, parent };
          }
          // Media win over a link card (a post has one embed); the link keeps its facet either way.
          const link = findLinks(part.text)[0];
          if (part.media.length) {
            uploadingVideo = part.media.some(isVideo);
            record.embed = await mediaEmbed(agent, part.media, input.signal);
            uploadingVideo = false;
          } else if (link) record.embed = await linkCard(app, link.url, input.signal);
          writing = true;
          const r = await agent.com.atproto.repo.createRecord({
            repo: did,
            collection: POST,
            rkey,
            record,
            validate: true,
          });
          writing = false;
          ref = { uri: r.data.uri, cid: r.data.cid };
        }
        refs.set(part.index, ref);
        await input.onPartPublished({
          index: part.index,
          remote_id: ref.uri,
          remote_url: postUrl(handle, rkey),
        });
      }
      const first = parts[0] ? recordKey(input.targetId, parts[0].index) : null;
      return { kind: "published", permalink: first ? postUrl(handle, first) : null };
    });
  } catch (e) {
    if (isAuthError(e)) forgetSession(app, c);
    const o = classify(e, writing);
    if (uploadingVideo && o.kind === "rejected" && o.code === "rejected")
      return {
        ...o,
        code: "media_rejected",
        message: `The PDS refused the video (${o.message}); nothing was posted.`,
      };
    return o;
  }
}

/** Looks for the target's parts at their record keys: all there is published; the first missing is not found. */
async function find(
  app: App,
  input: RemoteInput & { parts: { index: number }[]; done: PublishedPart[]; since: number },
): Promise<FindOutcome> {
  const c = credentialsOf(input.channel.settings, input.channel.secrets);
  try {
    return await withAgent(app, c, async (agent) => {
      const { did, handle } = agent.session!;
      const found: PublishedPart[] = [];
      for (const part of [...input.parts].sort((a, b) => a.index - b.index)) {
        const rkey = recordKey(input.targetId, part.index);
        const r = await lookUp(agent, did, rkey);
        if (!r) return { kind: "not_found" as const };
        found.push({ index: part.index, remote_id: r.ref.uri, remote_url: postUrl(handle, rkey) });
      }
      return { kind: "found" as const, permalink: found[0]?.remote_url ?? null, parts: found };
    });
  } catch (e) {
    return { kind: "unknown", message: e instanceof Error ? e.message : String(e) };
  }
}

/** Counts of the thread's first post (app.bsky.feed.getPosts, answered by the AppView through the PDS). */
async function engagement(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const first = [...input.parts].sort((a, b) => a.index - b.index)[0];
  if (!first) return { kind: "failed", message: "The target has no record on the network." };
  const c = credentialsOf(input.channel.settings, input.channel.secrets);
  try {
    return await withAgent(app, c, async (agent) => {
      const r = await agent.app.bsky.feed.getPosts({ uris: [first.remote_id] });
      const post = r.data.posts.find((p) => p.uri === first.remote_id);
      if (!post) {
        // The AppView does not know it: gone, or not indexed yet. The repo says which.
        const still = await lookUp(agent, agent.session!.did, rkeyOf(first.remote_id));
        if (!still) return { kind: "deleted" as const };
        return { kind: "failed" as const, message: "The post is not indexed yet." };
      }
      return {
        kind: "counts" as const,
        counts: {
          likes: post.likeCount ?? 0,
          reposts: post.repostCount ?? 0,
          replies: post.replyCount ?? 0,
          quotes: post.quoteCount ?? 0,
          views: null,
        },
      };
    });
  } catch (e) {
    return { kind: "failed", message: e instanceof Error ? e.message : String(e) };
  }
}

/** Deletes each part's record from the account's repo, the last first; a record already gone is no error. */
async function deletePublished(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<DeleteOutcome> {
  const c = credentialsOf(input.channel.settings, input.channel.secrets);
  try {
    return await withAgent(app, c, async (agent) => {
      const did = agent.session!.did;
      for (const part of [...input.parts].sort((a, b) => b.index - a.index))
        await agent.com.atproto.repo.deleteRecord({
          repo: did,
          collection: "app.bsky.feed.post",
          rkey: rkeyOf(part.remote_id),
        });
      return { kind: "deleted" as const };
    });
  } catch (e) {
    return { kind: "failed", message: e instanceof Error ? e.message : String(e) };
  }
}

export const blueskyAdapter: Adapter = {
  provider: "bluesky",
  idempotent: true,
  publish,
  connect,
  find,
  engagement,
  deletePublished,
  // A record is readable from the account's own repo as soon as createRecord answers.
  consistencyWindowMs: 5000,
};
