// /connect: sign-in connections from the dashboard (reference §5 "OAuth connect"). The page lists the networks
// with their developer apps; a form starts a sign-in (a POST with the CSRF token), the network sends the person
// back to /connect/<provider>/callback, and the person picks which accounts become channels. Members manage the
// org's own apps here too; every step is a domain call as the member.
import {
  ChoosePage,
  ConnectedPage,
  type ConnectNetwork,
  ConnectPage,
  type ConnectProps,
  LeavingPage,
} from "../../../views/connect.tsx";
import { createApp } from "../../domain/apps/create.ts";
import { listApps } from "../../domain/apps/list.ts";
import { redirectUri } from "../../domain/apps/present.ts";
import { listBrands } from "../../domain/brands/service.ts";
import { getChannel } from "../../domain/channels/service.ts";
import { finishSignIn } from "../../domain/connect/callback.ts";
import { chooseAccounts, pendingSignIn } from "../../domain/connect/choose.ts";
import { startSignIn } from "../../domain/connect/start.ts";
import { ServiceError } from "../../lib/errors.ts";
import { getPlatform } from "../../platforms/rules-registry.ts";
import { signInProviders } from "../../platforms/signin/specs.ts";
import { fieldErrors, frame, redirect, render, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function page(w: Web, extra: Partial<ConnectProps> = {}, status = 200) {
  const actor = w.member!.actor;
  const [apps, brands] = await Promise.all([
    listApps(w.app, actor, { limit: "100" }),
    listBrands(w.app, actor, { limit: "100" }),
  ]);
  const networks: ConnectNetwork[] = signInProviders.map((p) => ({
    provider: p,
    name: getPlatform(p)!.name,
    redirect_uri: redirectUri(w.app.config.baseUrl, p),
    // The org's own apps are offered before the server's.
    apps: [
      ...apps.data.filter((a) => a.provider === p && a.provided_by === "org"),
      ...apps.data.filter((a) => a.provider === p && a.provided_by === "server"),
    ],
  }));
  const channelId = w.url.searchParams.get("channel");
  const channel = channelId ? await getChannel(w.app, actor, channelId) : null;
  return render(
    w,
    <ConnectPage
      f={frame(w, "Connect a network", "connect")}
      networks={networks}
      brands={brands.data}
      channel={channel}
      canManage={actor.scopes.has("channels:write")}
      form={{ provider: "", name: "", client_id: "" }}
      {...extra}
    />,
    status,
  );
}

async function addApp(w: Web) {
  const form = {
    provider: w.form.get("provider") ?? "",
    name: w.form.get("name") ?? "",
    client_id: w.form.get("client_id") ?? "",
  };
  try {
    await createApp(w.app, w.member!.actor, { ...form, client_secret: w.form.get("client_secret") ?? "" });
    return redirect(w, "/connect");
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, { form, errors: fieldErrors(e) }, e.status);
  }
}

async function start(w: Web) {
  const provider = w.params.provider ?? "";
  const { url } = await startSignIn(w.app, w.member!.actor, {
    provider,
    brand: w.form.get("brand") ?? "",
    app: w.form.get("app") || undefined,
    channel: w.form.get("channel") || undefined,
  });
  return render(
    w,
    <LeavingPage f={frame(w, "Signing in")} network={getPlatform(provider)!.name} url={url} />,
  );
}

async function callback(w: Web) {
  const { id } = await finishSignIn(w.app, w.member!.actor.userId ?? "", w.params.provider ?? "", w.url);
  return redirect(w, `/connect/choose/${id}`);
}

async function choosePage(w: Web, errors?: ReturnType<typeof fieldErrors>, status = 200) {
  const p = await pendingSignIn(w.app, w.member!.actor, w.params.id ?? "");
  return render(
    w,
    <ChoosePage
      f={frame(w, "Pick accounts")}
      id={p.id}
      network={p.network}
      accounts={p.accounts}
      errors={errors}
    />,
    status,
  );
}

async function choose(w: Web) {
  const id = w.params.id ?? "";
  let network = "";
  try {
    network = (await pendingSignIn(w.app, w.member!.actor, id)).network;
    const channels = await chooseAccounts(w.app, w.member!.actor, id, w.form.getAll("accounts"));
    return render(w, <ConnectedPage f={frame(w, "Connected")} network={network} channels={channels} />);
  } catch (e) {
    if (!(e instanceof ServiceError) || e.code !== "choice_required") throw e;
    return choosePage(w, fieldErrors(e), e.status);
  }
}

export const connectRoutes: WebRoute[] = [
  { method: "GET", path: "/connect", access: "member", org: "read", handler: (w) => page(w) },
  { method: "POST", path: "/connect/apps", access: "member", org: "write", handler: addApp },
  { method: "POST", path: "/connect/:provider/start", access: "member", org: "write", handler: start },
  { method: "GET", path: "/connect/:provider/callback", access: "member", org: "write", handler: callback },
  {
    method: "GET",
    path: "/connect/choose/:id",
    access: "member",
    org: "read",
    handler: (w) => choosePage(w),
  },
  { method: "POST", path: "/connect/choose/:id", access: "member", org: "write", handler: choose },
];
