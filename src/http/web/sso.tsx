// Single sign-on in the dashboard. Signed out: /signin/sso (email → the org's provider), its callback, and the
// owners' break-glass sign-in. Owners: /org/sso (provider, domains, requiring it), every change in sudo mode.
import {
  BreakGlassPage,
  SsoLeavingPage,
  SsoPage,
  type SsoPageProps,
  SsoStartPage,
} from "../../../views/sso.tsx";
import { signInWithPassword } from "../../domain/identity/sessions/signin.ts";
import { addSsoDomain } from "../../domain/identity/sso/add-domain.ts";
import { completeSsoSignIn } from "../../domain/identity/sso/complete.ts";
import { connectSso } from "../../domain/identity/sso/connect.ts";
import { disconnectSso } from "../../domain/identity/sso/disconnect.ts";
import { redirectUri } from "../../domain/identity/sso/provider.ts";
import { removeSsoDomain } from "../../domain/identity/sso/remove-domain.ts";
import { setSsoRequired } from "../../domain/identity/sso/require.ts";
import { ssoSettings } from "../../domain/identity/sso/settings.ts";
import { startSsoSignIn } from "../../domain/identity/sso/start.ts";
import { verifySsoDomain } from "../../domain/identity/sso/verify-domain.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, redirect, render, setFlash, setSessionCookie, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";
import { limitSignIn } from "./signin.tsx";
import { confirmIfGiven, sudoNeeded } from "./sudo.ts";

async function startPage(w: Web) {
  return render(w, <SsoStartPage f={frame(w, "Continue with single sign-on")} />);
}

async function start(w: Web) {
  const email = w.form.get("email") ?? "";
  try {
    limitSignIn(w);
    const { url } = await startSsoSignIn(w.app, { email });
    return render(w, <SsoLeavingPage f={frame(w, "Signing in")} url={url} />);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    const errors = e.param ? fieldErrors(e) : { email: e.message };
    return render(
      w,
      <SsoStartPage f={frame(w, "Continue with single sign-on")} email={email} errors={errors} />,
      e.status,
      e.headers,
    );
  }
}

async function callback(w: Web) {
  try {
    const s = await completeSsoSignIn(w.app, w.session!, w.url, w.meta);
    setSessionCookie(w, s);
    return redirect(w, "/home");
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return render(
      w,
      <SsoStartPage f={frame(w, "Continue with single sign-on")} errors={{ email: e.message }} />,
      e.status,
      e.headers,
    );
  }
}

async function breakGlassPage(w: Web) {
  return render(w, <BreakGlassPage f={frame(w, "Owner sign-in")} />);
}

async function breakGlass(w: Web) {
  const email = w.form.get("email") ?? "";
  try {
    limitSignIn(w);
    const s = await signInWithPassword(
      w.app,
      w.session!,
      { email, password: w.form.get("password") ?? "", breakGlass: true },
      w.meta,
    );
    setSessionCookie(w, s);
    return redirect(w, s.stage === "second_factor" ? "/signin/two-factor" : "/home");
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return render(
      w,
      <BreakGlassPage f={frame(w, "Owner sign-in")} email={email} errors={fieldErrors(e)} />,
      e.status,
      e.headers,
    );
  }
}

function requireOwner(w: Web) {
  if (w.member!.org.role !== "owner")
    throw new ServiceError(403, "forbidden", "Only an owner can manage single sign-on.");
}

async function page(w: Web, extra: Partial<SsoPageProps> = {}, status = 200) {
  requireOwner(w);
  const sso = await ssoSettings(w.app, w.member!.actor);
  return render(
    w,
    <SsoPage
      f={frame(w, "Single sign-on", "org")}
      sso={sso}
      sudo={sudoNeeded(w)}
      viaSso={w.session!.sso_org_id === w.member!.org.id}
      redirectUri={redirectUri(w.app)}
      {...extra}
    />,
    status,
  );
}

/** Runs a change in sudo mode; its error is shown on the page, beside the form it came from. */
async function change(
  w: Web,
  act: () => Promise<unknown>,
  onError: (e: ServiceError) => Partial<SsoPageProps>,
) {
  requireOwner(w);
  try {
    await confirmIfGiven(w);
    await act();
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, onError(e), e.status);
  }
  setFlash(w, "sso_saved");
  return redirect(w, "/org/sso");
}

const sudo = (w: Web) => ({ confirmedAt: w.session!.confirmed_at });

const connect = (w: Web) => {
  const input = {
    issuer: w.form.get("issuer") ?? "",
    client_id: w.form.get("client_id") ?? "",
    client_secret: w.form.get("client_secret") ?? "",
    default_role: w.form.get("default_role") ?? "",
  };
  return change(
    w,
    () => connectSso(w.app, w.member!.actor, input, sudo(w)),
    (e) => ({ provider: { ...input, errors: fieldErrors(e) } }),
  );
};

const disconnect = (w: Web) =>
  change(
    w,
    () => disconnectSso(w.app, w.member!.actor, sudo(w)),
    (e) => ({ errors: fieldErrors(e) }),
  );

const addDomain = (w: Web) => {
  const domain = w.form.get("domain") ?? "";
  return change(
    w,
    () => addSsoDomain(w.app, w.member!.actor, { domain }, sudo(w)),
    (e) => ({ domain: { domain, errors: fieldErrors(e) } }),
  );
};

const verifyDomain = (w: Web) =>
  change(
    w,
    () => verifySsoDomain(w.app, w.member!.actor, w.params.id ?? "", sudo(w)),
    (e) => ({ errors: { domain: e.message } }),
  );

const removeDomain = (w: Web) =>
  change(
    w,
    () => removeSsoDomain(w.app, w.member!.actor, w.params.id ?? "", sudo(w)),
    (e) => ({ errors: { domain: e.message } }),
  );

const requireSso = (w: Web) =>
  change(
    w,
    () =>
      setSsoRequired(w.app, w.member!.actor, w.form.get("require") === "on", {
        ...sudo(w),
        ssoOrgId: w.session!.sso_org_id,
      }),
    (e) => ({ errors: { require: e.message } }),
  );

export const ssoRoutes: WebRoute[] = [
  { method: "GET", path: "/signin/sso", access: "guest", handler: startPage },
  { method: "POST", path: "/signin/sso", access: "guest", handler: start },
  { method: "GET", path: "/signin/sso/callback", access: "guest", handler: callback },
  { method: "GET", path: "/signin/break-glass", access: "guest", handler: breakGlassPage },
  { method: "POST", path: "/signin/break-glass", access: "guest", handler: breakGlass },
  { method: "GET", path: "/org/sso", access: "member", org: "read", handler: (w) => page(w) },
  { method: "POST", path: "/org/sso/provider", access: "member", org: "write", handler: connect },
  { method: "POST", path: "/org/sso/provider/remove", access: "member", org: "write", handler: disconnect },
  { method: "POST", path: "/org/sso/domains", access: "member", org: "write", handler: addDomain },
  {
    method: "POST",
    path: "/org/sso/domains/:id/verify",
    access: "member",
    org: "write",
    handler: verifyDomain,
  },
  {
    method: "POST",
    path: "/org/sso/domains/:id/remove",
    access: "member",
    org: "write",
    handler: removeDomain,
  },
  { method: "POST", path: "/org/sso/require", access: "member", org: "write", handler: requireSso },
];
