// What creating and previewing a post share: resolve brand, template or content, channels and metadata, then
// render each channel's text with that network's rules. Every problem is collected, none stops the rest, so one
// 422 (or one preview) lists them all.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { BrandsTable } from "../../db/schema.ts";
import type { MediaTable } from "../../db/tables/media.ts";
import { type Problem, problem } from "../../lib/errors.ts";
import { networkNotices } from "../../platforms/notices.ts";
import { isProvider, rulesFor } from "../../platforms/rules-registry.ts";
import { SIMULATIONS } from "../../platforms/sandbox/adapter.ts";
import { slackCarriesFiles } from "../../platforms/slack/rules.ts";
import type { Notice, PlatformRules, Provider, Violation } from "../../platforms/types.ts";
import type { Actor } from "../actor.ts";
import { loadBrand } from "../brands/service.ts";
import { channelsForPost, type PostChannel } from "../channels/service.ts";
import { checkMediaFor, loadPostMedia } from "../media/for-post.ts";
import { loadRender, type RenderViolation, type Rendition } from "../render/lazy.ts";
import { findTemplate, type ResolvedTemplate } from "../templates/resolve.ts";
import { validateData } from "../templates/variables.ts";
import { checkMetadata } from "./metadata.ts";
import type { ContentInput } from "./schema.ts";
import { postTextBounds } from "./text-bounds.ts";

export const MAX_MEDIA = 10;

export interface PrepareInput {
  brand: string;
  template?: string | undefined;
  data?: unknown;
  content?: ContentInput | undefined;
  channels?: string[] | undefined;
  media?: string[] | undefined;
  overrides?: Record<string, string> | undefined;
  fit?: Record<string, "error" | "truncate" | "thread"> | undefined;
  metadata?: Record<string, unknown> | undefined;
  first_comment?: string | null | undefined;
}

export interface Prepared {
  brand: BrandsTable;
  template: ResolvedTemplate | null;
  data: unknown;
  content: ContentInput | null;
  channels: PostChannel[];
  /** Each channel's text, with the broken rules of its text and media, and what publishing will resize. */
  renditions: { channel: PostChannel; rendition: Rendition; notices: Notice[] }[];
  metadata: Record<string, string>;
  media: string[];
  /** The listed media that exist in this brand, in the order listed. */
  mediaRows: MediaTable[];
  /** Problems of the request itself (template, data, channels, metadata, media). */
  problems: Problem[];
  /** Broken platform rules, per channel. */
  violations: Problem[];
  /** The account's own first reply after the post, or null. */
  firstComment: string | null;
}

/**
 * A first comment is the account's own reply right after the post, posted the way a thread's next part is: a
 * network that takes threads (replies by the account), or comments by the account on its own post (Facebook,
 * Instagram, LinkedIn Pages, YouTube), takes one; any other cannot, and says so rather than dropping it. It is measured as a part is.
 */
function commentViolations(rules: PlatformRules, comment: string, index: number): RenderViolation[] {
  if (!rules.threads && !rules.comments)
    return [
      {
        code: "first_comment_unsupported",
        message: `${rules.name} cannot take a first comment: svc cannot post a reply by the account there.`,
        part: index,
        media: null,
        length: null,
        limit: null,
      },
    ];
  // Required here, not imported: the counting (with linkify-it and the TLD list) loads with the first post that
  // has a first comment, not at start-up. A synchronous require, since this check is synchronous.
  const { measure } =
    require("../../platforms/text/counting.ts") as typeof import("../../platforms/text/counting.ts");
  const length = measure(comment, rules.counting);
  const limit = rules.comment_max_length ?? rules.max_length;
  if (limit !== null && length > limit)
    return [
      {
        code: "too_long",
        message: `The first comment measures ${length}; ${rules.name} takes at most ${limit}.`,
        part: index,
        media: null,
        length,
        limit,
      },
    ];
  return [];
}

function checkProviders(map: Record<string, unknown> | undefined, param: string, out: Problem[]) {
  for (const p of Object.keys(map ?? {}))
    if (!isProvider(p)) out.push(problem("provider_unknown", `Unknown platform ${p}.`, `${param}.${p}`));
}

export async function preparePost(
  db: Db | Tx,
  _app: App,
  actor: Actor,
  input: PrepareInput,
  postId: string,
): Promise<Prepared> {
  const problems: Problem[] = [];
  const brand = await loadBrand(db, actor, input.brand);

  let template: ResolvedTemplate | null = null;
  const content: ContentInput | null = input.content ?? null;
  if (input.template !== undefined && input.content !== undefined) {
    problems.push(problem("content_conflict", "Give template (with data) or content, not both.", "content"));
  } else if (input.template === undefined && input.content === undefined) {
    problems.push(problem("content_missing", "Give template (with data) or content.", "content"));
  }
  if (input.template !== undefined) {
    const found = await findTemplate(db, actor, brand.id, input.template);
    if ("code" in found) problems.push(found);
    else template = found;
    if (template) problems.push(...validateData(template.source.variables, input.data ?? {}));
  } else if (input.data !== undefined) {
    problems.push(problem("content_conflict", "data goes with a template.", "data"));
  }
  const media = input.media ?? [];
  if (content) {
    if (content.body !== undefined && content.parts !== undefined)
      problems.push(
        problem("content_conflict", "Give content.body or content.parts, not both.", "content.parts"),
      );
    const text = content.body ?? (content.parts ?? []).join("");
    if (text.trim() === "" && media.length === 0)
      problems.push(problem("content_empty", "The post has no text and no media.", "content.body"));
    checkProviders(content.overrides, "content.overrides", problems);
    checkProviders(content.fit, "content.fit", problems);
  }
  checkProviders(input.overrides, "overrides", problems);
  checkProviders(input.fit, "fit", problems);
  const textProblems = postTextBounds(input);
  problems.push(...textProblems);
  const firstComment = input.first_comment ?? null;
  if (firstComment !== null && firstComment.trim() === "")
    problems.push(
      problem("empty", "first_comment is empty; leave it out (or null) for none.", "first_comment"),
    );

  if (media.length > MAX_MEDIA)
    problems.push(problem("too_much_media", `A post carries at most ${MAX_MEDIA} media.`, "media"));
  const listed = await loadPostMedia(db, actor, brand.id, media);
  problems.push(...listed.problems);

  const { metadata, problems: metaProblems } = checkMetadata(input.metadata, actor.livemode, SIMULATIONS);
  problems.push(...metaProblems);

  const found = await channelsForPost(db, actor, brand.id, input.channels);
  problems.push(...found.problems);
  if (found.channels.length === 0 && found.problems.length === 0) {
    problems.push(
      problem(
        "no_channels",
        `Brand ${brand.slug} has no active channel in ${actor.livemode ? "live" : "test"} mode.`,
        "channels",
      ),
    );
  }

  const violations: Problem[] = [];
  const renditions: Prepared["renditions"] = [];
  const dataOk = template !== null && !problems.some((p) => p.param?.startsWith("data"));
  // Text over 64 KiB is not rendered: the work would grow with it (text-bounds.ts).
  if (textProblems.length === 0 && (template === null ? content !== null : dataOk)) {
    const { renderForProvider, renditionProblems } = await loadRender();
    const utm = {
      domains: JSON.parse(brand.utm_domains) as string[],
      campaign: template?.template.key ?? null,
      postId,
    };
    // Everything a rendition depends on but the channel's network is the same for every channel of the post, so
    // channels of one network (a brand's several sandbox channels, two accounts on one network) share one
    // rendition: the text is cut, tagged and measured once per network, not once per channel.
    const byNetwork = new Map<string, { rendition: Rendition; notices: Notice[] }>();
    const ownViolations = await channelMediaViolations(db, found.channels, listed.rows);
    for (const channel of found.channels) {
      const network = `${channel.provider}|${channel.emulates ?? ""}`;
      let rendered = byNetwork.get(network);
      if (!rendered) {
        const text = renderForProvider({
          provider: channel.provider as Provider,
          emulates: (channel.emulates as Provider | null) ?? null,
          ...(template
            ? { template: { source: template.source, data: input.data ?? {} } }
            : content?.parts !== undefined
              ? { parts: content.parts }
              : { body: content?.body ?? "" }),
          overrides: { ...input.overrides, ...content?.overrides },
          fit: { ...input.fit, ...content?.fit },
          mediaCount: media.length,
          utm,
        });
        const rules = rulesFor(channel.provider as Provider, (channel.emulates as Provider | null) ?? null);
        const checked = checkMediaFor(rules, listed.rows);
        const comment =
          firstComment !== null && firstComment.trim() !== ""
            ? commentViolations(rules, firstComment, text.parts.length)
            : [];
        rendered = {
          rendition: { ...text, violations: [...text.violations, ...checked.violations, ...comment] },
          notices: [...checked.notices, ...networkNotices(channel.provider)],
        };
        byNetwork.set(network, rendered);
      }
      const own = ownViolations.get(channel.id);
      const rendition = own
        ? { ...rendered.rendition, violations: [...rendered.rendition.violations, own] }
        : rendered.rendition;
      renditions.push({ channel, rendition, notices: rendered.notices });
      violations.push(...renditionProblems(rendition, channel.id));
    }
  }
  return {
    brand,
    template,
    data: input.data ?? null,
    content,
    channels: found.channels,
    renditions,
    metadata,
    media,
    mediaRows: listed.rows,
    problems,
    violations,
    firstComment,
  };
}

/**
 * What one channel of a network cannot carry although its network can: a Slack channel connected by an incoming
 * webhook takes no files (a bot token's does). Read only when the post has media and goes to Slack, so a post
 * without media costs no query.
 */
async function channelMediaViolations(
  db: Db | Tx,
  channels: PostChannel[],
  rows: MediaTable[],
): Promise<Map<string, Violation>> {
  const out = new Map<string, Violation>();
  if (rows.length === 0) return out;
  const slack = channels.filter((c) => c.provider === "slack");
  if (slack.length === 0) return out;
  const settings = await db
    .selectFrom("channels")
    .select(["id", "settings"])
    .where(
      "id",
      "in",
      slack.map((c) => c.id),
    )
    .execute();
  const video = rows.some((r) => r.kind === "video");
  for (const c of settings) {
    if (slackCarriesFiles(JSON.parse(c.settings ?? "{}") as Record<string, unknown>)) continue;
    out.set(c.id, {
      code: video ? "video_unsupported" : "too_much_media",
      message: `This Slack channel is connected with an incoming webhook, which cannot carry ${video ? "a video" : "images"}; connect it with a bot token (scope files:write) to send media, or post without them.`,
      part: null,
      media: null,
      length: rows.length,
      limit: 0,
    });
  }
  return out;
}
