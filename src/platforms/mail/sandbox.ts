// The sandbox mail provider (test mode): a made-up account whose audiences are fixed, so test-mode newsletters
// can be built and checked without a real provider. `account` names the account (default "sandbox"); the
// credential `simulate_revoked` set to "yes" makes every check refuse it, as a revoked key would.
import type { MailProvider } from "./types.ts";

export const SANDBOX_AUDIENCES = [
  { id: "everyone", name: "Everyone", size: 1200 },
  { id: "customers", name: "Customers", size: 800 },
  { id: "trial", name: "Trial users", size: 150 },
];

export const sandboxMail: MailProvider = {
  provider: "sandbox",
  name: "Sandbox",
  mode: "test",
  unsubscribe: "{{unsubscribe_url}}",
  fields: [
    {
      name: "account",
      label: "Account name",
      help: "Any name; one sandbox account of a name per brand.",
      secret: false,
      optional: true,
      default: "sandbox",
    },
    {
      name: "simulate_handoff",
      label: "Simulate a failing hand-off",
      help: '"unavailable" makes every campaign the sandbox is given fail as a provider outage would.',
      secret: false,
      optional: true,
      default: null,
    },
    {
      name: "simulate_revoked",
      label: "Simulate a revoked credential",
      help: '"yes" makes the sandbox refuse the account, as a provider refuses a revoked key.',
      secret: false,
      optional: true,
      default: null,
    },
  ],
  async check(_app, creds) {
    if (creds.settings.simulate_revoked === "yes")
      return { kind: "rejected", message: "The sandbox was asked to refuse this account." };
    const ref = creds.settings.account ?? "sandbox";
    return { kind: "ok", account: { ref, name: `Sandbox ${ref}` } };
  },
  async audiences(_app, creds) {
    if (creds.settings.simulate_revoked === "yes")
      return { kind: "rejected", message: "The sandbox was asked to refuse this account." };
    return { kind: "ok", value: SANDBOX_AUDIENCES };
  },
  async createCampaign(_app, creds, c, ctx) {
    if (creds.settings.simulate_handoff === "unavailable")
      return {
        kind: "unavailable",
        message: "The sandbox was asked to fail every hand-off (simulate_handoff).",
      };
    return { kind: "ok", value: { campaignId: await ctx.sandbox.create(ctx.accountId, c) } };
  },
  async findCampaign(_app, _creds, marker, ctx) {
    return { kind: "ok", value: await ctx.sandbox.findByMarker(ctx.accountId, marker) };
  },
  async moveCampaign(_app, _creds, campaignId, sendAt, ctx) {
    if (!(await ctx.sandbox.update(ctx.accountId, campaignId, { sendAt })))
      return { kind: "rejected", message: `The sandbox has no campaign ${campaignId}.` };
    return { kind: "ok", value: true };
  },
  async cancelCampaign(_app, _creds, campaignId, ctx) {
    if (!(await ctx.sandbox.update(ctx.accountId, campaignId, { status: "canceled" })))
      return { kind: "rejected", message: `The sandbox has no campaign ${campaignId}.` };
    return { kind: "ok", value: true };
  },
  // Made-up but steady counts from the audiences' sizes, so test-mode results look like a send: 40 % opened,
  // 8 % clicked, 0.5 % unsubscribed, 1 % bounced.
  async results(_app, _creds, campaignId, ctx) {
    const audiences = await ctx.sandbox.audiences(ctx.accountId, campaignId);
    if (audiences === null)
      return { kind: "rejected", message: `The sandbox has no campaign ${campaignId}.` };
    const sent = SANDBOX_AUDIENCES.filter((x) => audiences.includes(x.id)).reduce((n, x) => n + x.size, 0);
    return {
      kind: "ok",
      value: {
        sent,
        opens: Math.round(sent * 0.4),
        clicks: Math.round(sent * 0.08),
        unsubscribes: Math.round(sent * 0.005),
        bounces: Math.round(sent * 0.01),
      },
    };
  },
};
