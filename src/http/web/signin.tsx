// GET/POST /signin, the second step at /signin/two-factor, and POST /signout. Sign-in attempts are limited per
// client address (in this process) on top of the per-account lockout the database keeps.

import { SecondFactorPage, SignInPage } from "../../../views/signin.tsx";
import { passkeySignInOptions } from "../../domain/identity/mfa/passkeys.ts";
import { mfaOf } from "../../domain/identity/mfa/status.ts";
import { signOut } from "../../domain/identity/sessions/service.ts";
import {
  completeWithCode,
  signInWithPasskey,
  signInWithPassword,
} from "../../domain/identity/sessions/signin.ts";
import { ServiceError } from "../../lib/errors.ts";
import { RateLimiter } from "../ratelimit.ts";
import {
  clearSessionCookie,
  fieldErrors,
  frame,
  json,
  redirect,
  render,
  setFlash,
  setSessionCookie,
  type Web,
} from "./page.ts";
import type { WebRoute } from "./route.ts";

/** 10 attempts at once per address, then one every 6 seconds (per process, like the API's limit). */
const limiters = new WeakMap<object, RateLimiter>();

export function limitSignIn(w: Web): void {
  let attempts = limiters.get(w.app);
  if (!attempts) {
    attempts = new RateLimiter(1 / 6, 10);
    limiters.set(w.app, attempts);
  }
  const r = attempts.take(`signin:${w.meta.ip ?? "unknown"}`, w.app.clock.now());
  if (!r.ok)
    throw new ServiceError(
      429,
      "rate_limited",
      `Too many sign-in attempts from your address; wait ${r.retryAfter} seconds.`,
      {
        headers: { "Retry-After": String(r.retryAfter) },
      },
    );
}

const afterSignIn = (stage: string) =>
  stage === "second_factor" ? "/signin/two-factor" : stage === "enrol" ? "/account/security" : "/home";

async function signInPage(w: Web) {
  if (w.session?.stage === "active" && w.member) return redirect(w, "/home");
  return render(w, <SignInPage f={frame(w, "Sign in")} signupUrl={w.app.config.signupUrl} />);
}

async function signIn(w: Web) {
  const email = w.form.get("email") ?? "";
  try {
    limitSignIn(w);
    const s = await signInWithPassword(
      w.app,
      w.session!,
      { email, password: w.form.get("password") ?? "", code: w.form.get("code") ?? undefined },
      w.meta,
    );
    setSessionCookie(w, s);
    if (s.stage === "enrol") setFlash(w, "mfa_required_first");
    return redirect(w, afterSignIn(s.stage));
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return render(
      w,
      <SignInPage
        f={frame(w, "Sign in")}
        email={email}
        errors={fieldErrors(e)}
        paused={e.code === "account_locked"}
        signupUrl={w.app.config.signupUrl}
      />,
      e.status,
      e.headers,
    );
  }
}

async function secondFactorPage(
  w: Web,
  errors?: Record<string, string>,
  status = 200,
  extra: Record<string, string> = {},
) {
  const mfa = await mfaOf(w.app.db, w.session!.user_id!);
  return render(
    w,
    <SecondFactorPage
      f={frame(w, "Two-factor sign-in")}
      totp={mfa.totp || mfa.recoveryCodesLeft > 0}
      passkeys={mfa.passkeys > 0}
      {...(errors ? { errors } : {})}
    />,
    status,
    extra,
  );
}

async function secondFactor(w: Web) {
  try {
    limitSignIn(w);
    const s = await completeWithCode(w.app, w.session!, w.form.get("code") ?? "", w.meta);
    setSessionCookie(w, s);
    return redirect(w, "/home");
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return secondFactorPage(w, fieldErrors(e), e.status, e.headers);
  }
}

async function signOutHandler(w: Web) {
  if (w.session) await signOut(w.app, w.session);
  clearSessionCookie(w);
  setFlash(w, "signed_out");
  return redirect(w, "/signin");
}

/** The passkey steps of sign-in (JSON, called by /static/passkeys.js). */
async function passkeyOptions(w: Web) {
  const options = await passkeySignInOptions(w.app, w.session!);
  // A pre-session keeps the challenge in its signed cookie: send the new one.
  if (w.session!.pre) setSessionCookie(w, w.session!);
  return json(w, 200, options);
}

async function passkeySignIn(w: Web) {
  try {
    limitSignIn(w);
    const b = (await w.request.json().catch(() => ({}))) as { response?: unknown };
    const s = await signInWithPasskey(w.app, w.session!, b.response, w.meta);
    setSessionCookie(w, s);
    return json(w, 200, { next: "/home" });
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    // The challenge was spent either way: a pre-session's cookie drops it.
    if (w.session?.pre) setSessionCookie(w, w.session);
    return json(w, e.status, { code: e.code, message: e.message });
  }
}

export const signInRoutes: WebRoute[] = [
  { method: "POST", path: "/signin/passkey/options", access: "guest", handler: passkeyOptions },
  { method: "POST", path: "/signin/passkey", access: "guest", handler: passkeySignIn },
  { method: "GET", path: "/signin", access: "guest", handler: signInPage },
  { method: "POST", path: "/signin", access: "guest", handler: signIn },
  { method: "GET", path: "/signin/two-factor", access: "second_factor", handler: (w) => secondFactorPage(w) },
  { method: "POST", path: "/signin/two-factor", access: "second_factor", handler: secondFactor },
  { method: "POST", path: "/signout", access: "guest", handler: signOutHandler },
];
