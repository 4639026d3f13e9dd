// POST /org and POST /mode: the org switcher and the test/live switcher in every page's header.
import { switchMode, switchOrg } from "../../domain/identity/sessions/member.ts";
import { localPath, redirect, setFlash, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";

async function org(w: Web) {
  await switchOrg(w.app, w.session!, w.form.get("org") ?? "");
  setFlash(w, "org_switched");
  return redirect(w, localPath(w.form.get("back")));
}

async function mode(w: Web) {
  const live = w.form.get("livemode") === "true";
  await switchMode(w.app, w.session!, live);
  setFlash(w, live ? "mode_live" : "mode_test");
  return redirect(w, localPath(w.form.get("back")));
}

export const switchRoutes: WebRoute[] = [
  { method: "POST", path: "/org", access: "member", org: "none", handler: org },
  { method: "POST", path: "/mode", access: "member", org: "none", handler: mode },
];
