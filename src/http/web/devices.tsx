// GET /account/devices and POST /account/devices/:id/revoke: the person's CLI sign-ins (user tokens).
import { DevicesPage } from "../../../views/devices.tsx";
import { listUserTokens, revokeUserToken } from "../../domain/identity/auth/user-token-service.ts";
import { emptyFragment, frame, redirect, render, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function page(w: Web) {
  const list = await listUserTokens(w.app, w.member!.actor);
  return render(w, <DevicesPage f={frame(w, "Devices", "devices")} devices={list.data} />);
}

async function revoke(w: Web) {
  await revokeUserToken(w.app, w.member!.actor, w.params.id ?? "");
  if (w.request.headers.get("hx-request") === "true") return emptyFragment(w);
  setFlash(w, "device_revoked");
  return redirect(w, "/account/devices");
}

export const deviceListRoutes: WebRoute[] = [
  { method: "GET", path: "/account/devices", access: "member", org: "none", handler: page },
  { method: "POST", path: "/account/devices/:id/revoke", access: "member", org: "none", handler: revoke },
];
