// /channels: the org's channels in this mode, grouped by brand, and everything done to one: connect (the same
// createChannel as POST /v1/channels, with the network's connect_fields as the form), rename a sandbox channel
// (its display_name field, through reconnectChannel), check now, enable or disable (updateChannel), reconnect
// with new credentials (reconnectChannel), disconnect after a confirmation page (deleteChannel); and the org's
// developer apps (createApp, renameApp, deleteApp). Sign-in networks go through /connect.
import {
  type ChannelApp,
  ChannelsPage,
  type ChannelsProps,
  DeleteChannelPage,
  type Network,
  networkLabel,
  type Submitted,
} from "../../../views/channels.tsx";
import { createApp } from "../../domain/apps/create.ts";
import { deleteApp } from "../../domain/apps/delete.ts";
import { listApps } from "../../domain/apps/list.ts";
import { renameApp } from "../../domain/apps/rename.ts";
import { listBrands } from "../../domain/brands/service.ts";
import { checkChannelNow } from "../../domain/channels/check-now.ts";
import {
  createChannel,
  deleteChannel,
  getChannel,
  listChannels,
  reconnectChannel,
  updateChannel,
} from "../../domain/channels/service.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldChoices } from "../../platforms/field-choices.ts";
import { platforms } from "../../platforms/rules-registry.ts";
import { signInProviders } from "../../platforms/signin/specs.ts";
import { fieldErrors, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

const names = Object.fromEntries(platforms.map((p) => [p.provider, p.name]));

/** What this mode can connect: the sandbox in test mode; in live mode each network with fields or a sign-in. */
function networks(livemode: boolean): Network[] {
  return platforms
    .filter((p) => (livemode ? !p.test_only : p.test_only))
    .map((p) => ({
      provider: p.provider,
      name: p.name,
      // Options (a YouTube channel's privacy) are no credentials: a network with nothing else connects only by
      // signing in, and gets no credentials form.
      fields: p.connect_fields
        .filter((f) => !fieldChoices(p.provider, f.name))
        .map((f) => ({
          name: f.name,
          label: f.label,
          help: f.help,
          secret: f.secret,
          optional: f.optional,
        })),
      signIn: signInProviders.includes(p.provider),
    }))
    .filter((n) => n.fields.length > 0 || n.signIn);
}

async function page(w: Web, extra: Partial<ChannelsProps> = {}, status = 200) {
  const actor = w.member!.actor;
  const f = frame(w, "Channels", "channels");
  const canManage = actor.scopes.has("channels:write");
  const base = { f, names, networks: networks(f.livemode), canManage };
  if (w.member!.org.status === "suspended")
    return render(w, <ChannelsPage {...base} brands={[]} channels={[]} apps={[]} />);
  const [brands, channels, apps] = await Promise.all([
    listBrands(w.app, actor, { limit: "100" }),
    listChannels(w.app, actor, { limit: "100" }),
    canManage ? listApps(w.app, actor, { limit: "100" }) : Promise.resolve({ data: [] as ChannelApp[] }),
  ]);
  const sorted = [...brands.data].sort((a, b) => a.name.localeCompare(b.name));
  return render(
    w,
    <ChannelsPage {...base} brands={sorted} channels={channels.data} apps={apps.data} {...extra} />,
    status,
  );
}

/** The form's fields named `fields.<name>` as connect fields. */
function connectFields(w: Web): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of w.form) if (k.startsWith("fields.")) out[k.slice(7)] = v;
  return out;
}

/** Runs a change; a refusal the person can fix is shown beside the form it came from, anything else thrown. */
async function attempt(
  w: Web,
  form: string,
  change: () => Promise<unknown>,
  done: string,
  flash: Parameters<typeof setFlash>[1],
) {
  try {
    await change();
    setFlash(w, flash);
    return redirect(w, done);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.status >= 500 || e.status === 403) throw e;
    // A missing channel or app (another org's, the other mode's) is the page's 404, not a field's.
    if (e.status === 404 && !form.startsWith("connect:")) throw e;
    const values: Record<string, string> = {};
    for (const [k, v] of w.form) if (k !== "_csrf" && !/secret|token|password/.test(k)) values[k] = v;
    const submitted: Submitted = { form, values, errors: fieldErrors(e) };
    return page(w, { submitted }, e.status);
  }
}

const connect = (w: Web) => {
  const provider = w.form.get("provider") ?? "";
  const emulates = w.form.get("emulates");
  return attempt(
    w,
    `connect:${provider}`,
    () =>
      createChannel(w.app, w.member!.actor, {
        brand: w.form.get("brand") ?? "",
        provider,
        ...(provider === "sandbox" && emulates ? { emulates } : {}),
        fields: connectFields(w),
      }),
    "/channels",
    "channel_connected",
  );
};

/** A sandbox channel's name is its display_name field; its handle is given again so it is kept. */
async function rename(w: Web) {
  const id = w.params.id ?? "";
  const actor = w.member!.actor;
  const cur = await getChannel(w.app, actor, id);
  if (cur.provider !== "sandbox")
    throw new ServiceError(
      409,
      "provider_unavailable",
      "A network's channel is named after its account: Check now reads the name again.",
    );
  const fields: Record<string, string> = { display_name: w.form.get("display_name") ?? "" };
  if (cur.settings.handle !== undefined) fields.handle = cur.settings.handle;
  if ((fields.display_name ?? "").trim() === "")
    return page(
      w,
      { submitted: { form: `rename:${id}`, values: {}, errors: { display_name: "Type a name." } } },
      422,
    );
  if ((fields.display_name ?? "").length > 100)
    return page(
      w,
      {
        submitted: {
          form: `rename:${id}`,
          values: { display_name: fields.display_name ?? "" },
          errors: { display_name: "A name is at most 100 characters." },
        },
      },
      422,
    );
  return attempt(
    w,
    `rename:${id}`,
    () => reconnectChannel(w.app, actor, id, { fields }),
    "/channels",
    "channel_saved",
  );
}

async function check(w: Web) {
  const id = w.params.id ?? "";
  const { result } = await checkChannelNow(w.app, w.member!.actor, id);
  return page(w, { checked: { id, result } });
}

const status = (w: Web) => {
  const id = w.params.id ?? "";
  return attempt(
    w,
    `channel:${id}`,
    () => updateChannel(w.app, w.member!.actor, id, { status: w.form.get("status") ?? "" }),
    `/channels#channel-${id}`,
    "channel_saved",
  );
};

const reconnect = (w: Web) => {
  const id = w.params.id ?? "";
  return attempt(
    w,
    `reconnect:${id}`,
    () => reconnectChannel(w.app, w.member!.actor, id, { fields: connectFields(w) }),
    `/channels#channel-${id}`,
    "channel_saved",
  );
};

async function confirmDelete(w: Web) {
  const actor = w.member!.actor;
  const c = await getChannel(w.app, actor, w.params.id ?? "");
  const brands = await listBrands(w.app, actor, { limit: "100" });
  return render(
    w,
    <DeleteChannelPage
      f={frame(w, "Disconnect a channel", "channels")}
      channel={c}
      brand={brands.data.find((b) => b.id === c.brand) ?? null}
      network={networkLabel(c, names)}
    />,
  );
}

async function remove(w: Web) {
  await deleteChannel(w.app, w.member!.actor, w.params.id ?? "");
  setFlash(w, "channel_disconnected");
  return redirect(w, "/channels");
}

const addApp = (w: Web) =>
  attempt(
    w,
    "app:new",
    () =>
      createApp(w.app, w.member!.actor, {
        provider: w.form.get("provider") ?? "",
        name: w.form.get("name") ?? "",
        client_id: w.form.get("client_id") ?? "",
        client_secret: w.form.get("client_secret") ?? "",
      }),
    "/channels#apps",
    "app_saved",
  );

const renameAppRoute = (w: Web) => {
  const id = w.params.id ?? "";
  return attempt(
    w,
    `app:${id}`,
    () => renameApp(w.app, w.member!.actor, id, { name: w.form.get("name") ?? "" }),
    "/channels#apps",
    "app_saved",
  );
};

async function removeApp(w: Web) {
  await deleteApp(w.app, w.member!.actor, w.params.id ?? "");
  setFlash(w, "app_removed");
  return redirect(w, "/channels#apps");
}

const write = { access: "member", org: "write", needs: "channels:write" } as const;

export const channelRoutes: WebRoute[] = [
  { method: "GET", path: "/channels", access: "member", org: "read", handler: (w) => page(w) },
  { method: "POST", path: "/channels", ...write, handler: connect },
  { method: "POST", path: "/channels/apps", ...write, handler: addApp },
  { method: "POST", path: "/channels/apps/:id/rename", ...write, handler: renameAppRoute },
  { method: "POST", path: "/channels/apps/:id/remove", ...write, handler: removeApp },
  { method: "POST", path: "/channels/:id/rename", ...write, handler: rename },
  { method: "POST", path: "/channels/:id/check", ...write, handler: check },
  { method: "POST", path: "/channels/:id/status", ...write, handler: status },
  { method: "POST", path: "/channels/:id/reconnect", ...write, handler: reconnect },
  {
    method: "GET",
    path: "/channels/:id/delete",
    access: "member",
    org: "write",
    needs: "channels:write",
    handler: confirmDelete,
  },
  { method: "POST", path: "/channels/:id/delete", ...write, handler: remove },
];
