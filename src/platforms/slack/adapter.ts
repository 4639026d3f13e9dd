// Slack, two ways to connect: an incoming webhook URL (posts to the one channel it was made for), or a bot token
// with a channel (chat.postMessage). A webhook URL cannot be checked without posting, so connecting one checks
// only its shape; a bot token is checked with auth.test and the channel with conversations.info. Each part is one
// message, in order. Not idempotent: Slack has no idempotency key.
// With a bot token, images and a video go as files through Slack's external upload: files.getUploadURLExternal for
// each file, the bytes to the URL it gives, then one files.completeUploadExternal sharing them all into the channel
// with the text as the message (initial_comment). Until that last call nothing shows in the channel, so a failure
// before it is a plain retry; only the last call can leave the post uncertain. A webhook cannot carry files: the
// preview refuses media for such a channel (slackCarriesFiles), and publishing refuses them too.
// The webhook's path is kept and sent to Slack's hooks origin (SVC_PROVIDER_ORIGINS `slack.hooks`), the Web API
// goes to `slack` (https://slack.com): the pasted URL cannot point svc anywhere else.
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  ConnectInput,
  ConnectOutcome,
  PublishedPart,
  PublishInput,
  PublishOutcome,
} from "../adapter.ts";
import {
  field,
  mediaNotSent,
  type NetworkResponse,
  NoAnswer,
  networkRequest,
  noAnswerOutcome,
  remainingParts,
  secondsToMs,
  str,
} from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import { escapeSlack } from "./escape.ts";
import { shareFiles } from "./files.ts";
import { api, apiRefusal, retryAfter, slackError } from "./web-api.ts";

export const SLACK_HOOKS_ORIGIN = "https://hooks.slack.com";
const HOOK_PATH = /^\/services\/T[A-Z0-9]{2,20}\/B[A-Z0-9]{2,20}\/[A-Za-z0-9]{10,40}$/;

// Incoming-webhook errors (plain text bodies) that mean the webhook was removed or its app uninstalled.
const HOOK_REVOKED = new Set(["no_service", "no_team", "team_disabled", "invalid_token", "no_active_hooks"]);

type Mode = { kind: "webhook"; path: string } | { kind: "bot"; token: string; channel: string };

function modeOf(secrets: Record<string, string>, settings: Record<string, unknown>): Mode | string {
  const hook = secrets.webhook_url;
  const token = secrets.bot_token;
  const channel = str(settings.channel);
  if (hook && token) return "Give either a webhook URL or a bot token with a channel, not both.";
  if (hook) {
    const url = URL.canParse(hook) ? new URL(hook) : null;
    const ok =
      url?.protocol === "https:" && url.hostname === "hooks.slack.com" && HOOK_PATH.test(url.pathname);
    if (!url || !ok)
      return "The webhook URL is not a Slack incoming webhook (https://hooks.slack.com/services/T…/B…/…).";
    return { kind: "webhook", path: url.pathname };
  }
  if (token) {
    if (!/^xox[bp]-[A-Za-z0-9-]{10,}$/.test(token)) return "The bot token is not a Slack bot token (xoxb-…).";
    if (!channel) return "A bot token needs the channel to post in (its ID, for example C0123ABCD).";
    return { kind: "bot", token, channel };
  }
  return "Slack needs an incoming webhook URL, or a bot token and a channel.";
}

async function connect(app: App, input: ConnectInput): Promise<ConnectOutcome> {
  const mode = modeOf(input.secrets, input.settings);
  if (typeof mode === "string") return { kind: "rejected", message: mode };
  // Anything sent to a webhook is posted: its shape is all that can be checked.
  if (mode.kind === "webhook")
    return {
      kind: "connected",
      account: { display_name: "Slack incoming webhook", handle: null, profile_url: null },
      settings: { ...input.settings, via: "webhook" },
    };
  try {
    const me = await api(app, mode.token, "auth.test", {});
    if (me.status === 429 || me.status >= 500)
      return { kind: "unavailable", message: `Slack answered ${me.status}: ${slackError(me)}` };
    if (field(me.json, "ok") !== true)
      return { kind: "rejected", message: `Slack refused the bot token: ${slackError(me)}` };
    const info = await api(app, mode.token, "conversations.info", { channel: mode.channel });
    if (info.status === 429 || info.status >= 500)
      return { kind: "unavailable", message: `Slack answered ${info.status}: ${slackError(info)}` };
    if (field(info.json, "ok") !== true)
      return {
        kind: "rejected",
        message: `Slack: the bot cannot see channel ${mode.channel}: ${slackError(info)}`,
      };
    const name = str(field(field(info.json, "channel"), "name"));
    const team = str(field(me.json, "url"));
    return {
      kind: "connected",
      account: {
        display_name: name
          ? `#${name} (${str(field(me.json, "team")) ?? "Slack"})`
          : str(field(me.json, "team")),
        handle: name ? `#${name}` : null,
        profile_url: team ? `${team.replace(/\/+$/, "")}/archives/${mode.channel}` : null,
      },
      settings: { ...input.settings, via: "bot" },
    };
  } catch (err) {
    return { kind: "unavailable", message: `Slack: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function hookRefusal(res: NetworkResponse, index: number): PublishOutcome {
  const error = res.text.trim().slice(0, 300) || `HTTP ${res.status}`;
  const message = `Slack answered ${res.status} to part ${index + 1}: ${error}`;
  if (res.status === 429) return { kind: "rate_limited", retryAfterMs: retryAfter(res), message };
  if (res.status >= 500) return { kind: "transient", message };
  if (HOOK_REVOKED.has(error)) return { kind: "auth_revoked", message };
  return { kind: "rejected", code: "rejected", message };
}

async function sendPart(app: App, mode: Mode, text: string, signal: AbortSignal): Promise<NetworkResponse> {
  const escaped = escapeSlack(text);
  if (mode.kind === "webhook") {
    const origin = providerOrigin(app, "slack.hooks", SLACK_HOOKS_ORIGIN).replace(/\/+$/, "");
    return networkRequest(app, {
      method: "POST",
      url: `${origin}${mode.path}`,
      json: { text: escaped, mrkdwn: false },
      signal,
    });
  }
  return api(
    app,
    mode.token,
    "chat.postMessage",
    { channel: mode.channel, text: escaped, mrkdwn: "false", parse: "none", link_names: "false" },
    true,
    signal,
  );
}

async function permalinkOf(app: App, mode: Mode, channel: string, ts: string): Promise<string | null> {
  if (mode.kind !== "bot") return null;
  try {
    const res = await api(app, mode.token, "chat.getPermalink", { channel, message_ts: ts });
    return field(res.json, "ok") === true ? str(field(res.json, "permalink")) : null;
  } catch {
    // The message is posted; a link that cannot be read now is not a failure of the post.
    return null;
  }
}

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  const mode = modeOf(input.channel.secrets, input.channel.settings);
  if (typeof mode === "string") return { kind: "auth_revoked", message: mode };
  let permalink: string | null = input.done.find((d) => d.index === 0)?.remote_url ?? null;
  // An incoming webhook cannot carry files (the preview says so): never post the text without them.
  if (mode.kind === "webhook") {
    const noMedia = mediaNotSent(
      "Slack",
      remainingParts(input.parts, input.done),
      "A Slack incoming webhook cannot carry images or video; connect the channel with a bot token to send them",
    );
    if (noMedia) return noMedia;
  }
  for (const part of remainingParts(input.parts, input.done)) {
    if (input.signal.aborted)
      return { kind: "transient", message: `Stopped before part ${part.index + 1} was sent.` };
    if (mode.kind === "bot" && part.media.length) {
      const shared = await shareFiles(app, mode, part, escapeSlack(part.text), input.signal);
      if ("outcome" in shared) return shared.outcome;
      await input.onPartPublished(shared.published);
      if (part.index === 0) permalink = shared.published.remote_url;
      continue;
    }
    let res: NetworkResponse;
    try {
      res = await sendPart(app, mode, part.text, input.signal);
    } catch (err) {
      if (!(err instanceof NoAnswer)) throw err;
      return noAnswerOutcome("Slack", err, part.index);
    }
    let published: PublishedPart;
    if (mode.kind === "webhook") {
      if (res.status !== 200) return hookRefusal(res, part.index);
      // An incoming webhook answers "ok" and nothing else: the message has no ID svc can learn.
      published = {
        index: part.index,
        remote_id: `webhook-${input.targetId}-${part.index}`,
        remote_url: null,
      };
    } else {
      if (res.status !== 200 || field(res.json, "ok") !== true) return apiRefusal(res, part.index);
      const ts = str(field(res.json, "ts"));
      const channel = str(field(res.json, "channel")) ?? mode.channel;
      if (!ts) return { kind: "uncertain", message: `Slack took part ${part.index + 1} but sent no ts.` };
      published = {
        index: part.index,
        remote_id: `${channel}/${ts}`,
        remote_url: await permalinkOf(app, mode, channel, ts),
      };
    }
    await input.onPartPublished(published);
    if (part.index === 0) permalink = published.remote_url;
  }
  return { kind: "published", permalink };
}

export const slackAdapter: Adapter = { provider: "slack", idempotent: false, publish, connect };
