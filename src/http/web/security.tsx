// /account/security: the authenticator app, recovery codes and passkeys, and /account/confirm (sudo mode).
// A person made to enrol first (`mfa_required_first`) lands here; adding a factor finishes their sign-in.

import type { FieldErrors } from "../../../views/frame.ts";
import { SecurityPage } from "../../../views/security.tsx";
import { isRecentAuth } from "../../domain/identity/auth/sudo.ts";
import {
  listPasskeys,
  passkeyRegistrationOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
} from "../../domain/identity/mfa/passkeys.ts";
import { mfaOf } from "../../domain/identity/mfa/status.ts";
import {
  cancelTotp,
  confirmTotp,
  disableTotp,
  pendingTotpOf,
  renewRecoveryCodes,
  startTotp,
} from "../../domain/identity/mfa/totp.ts";
import { sessionMember } from "../../domain/identity/sessions/member.ts";
import { activate, confirmPassword } from "../../domain/identity/sessions/signin.ts";
import { ServiceError } from "../../lib/errors.ts";
import {
  fieldErrors,
  frame,
  json,
  localPath,
  redirect,
  render,
  setFlash,
  setSessionCookie,
  type Web,
} from "./page.ts";
import type { WebRoute } from "./route.ts";

async function page(
  w: Web,
  opts: {
    errors?: FieldErrors;
    codes?: string[] | null;
    status?: number;
    headers?: Record<string, string>;
  } = {},
) {
  const s = w.session!;
  const [mfa, passkeys, pending] = await Promise.all([
    mfaOf(w.app.db, s.user_id!),
    listPasskeys(w.app, s),
    pendingTotpOf(w.app, s),
  ]);
  return render(
    w,
    <SecurityPage
      f={frame(w, "Security", "security")}
      sudo={isRecentAuth(w.app, s.confirmed_at)}
      enrolling={s.stage === "enrol"}
      totp={mfa.totp}
      recoveryCodesLeft={mfa.recoveryCodesLeft}
      pending={pending}
      codes={opts.codes ?? null}
      passkeys={passkeys}
      errors={opts.errors}
    />,
    opts.status ?? 200,
    opts.headers ?? {},
  );
}

/** Runs a change; a refusal is shown on the page beside its field (or above the form). */
async function change(w: Web, fn: () => Promise<Response>) {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return page(w, {
      errors: fieldErrors(e),
      status: e.status,
      ...(e.headers ? { headers: e.headers } : {}),
    });
  }
}

/** After the first factor of a person made to enrol, the sign-in completes (with a new session ID). */
async function finishEnrolment(w: Web) {
  if (w.session?.stage !== "enrol") return;
  const s = await activate(w.app, w.session, w.meta);
  setSessionCookie(w, s);
  w.member = await sessionMember(w.app, s, w.requestId);
}

const routes: [string, (w: Web) => Promise<Response>][] = [
  [
    "/account/confirm",
    (w) =>
      change(w, async () => {
        await confirmPassword(w.app, w.session!, w.form.get("password") ?? "", w.meta.ip);
        setFlash(w, "confirmed");
        return redirect(w, localPath(w.form.get("back"), "/account/security"));
      }),
  ],
  [
    "/account/security/totp/start",
    (w) => change(w, async () => (await startTotp(w.app, w.session!), page(w))),
  ],
  [
    "/account/security/totp/confirm",
    (w) =>
      change(w, async () => {
        const codes = await confirmTotp(w.app, w.session!, w.form.get("code") ?? "");
        await finishEnrolment(w);
        return page(w, { codes });
      }),
  ],
  [
    "/account/security/totp/cancel",
    (w) =>
      change(w, async () => {
        await cancelTotp(w.app, w.session!);
        setFlash(w, "totp_canceled");
        return redirect(w, "/account/security");
      }),
  ],
  [
    "/account/security/totp/disable",
    (w) =>
      change(w, async () => {
        await disableTotp(w.app, w.session!);
        setFlash(w, "totp_disabled");
        return redirect(w, "/account/security");
      }),
  ],
  [
    "/account/security/recovery",
    (w) => change(w, async () => page(w, { codes: await renewRecoveryCodes(w.app, w.session!) })),
  ],
  [
    "/account/security/passkeys/:id/rename",
    (w) =>
      change(w, async () => {
        await renamePasskey(w.app, w.session!, w.params.id ?? "", { name: w.form.get("name") ?? "" });
        setFlash(w, "passkey_renamed");
        return redirect(w, "/account/security");
      }),
  ],
  [
    "/account/security/passkeys/:id/remove",
    (w) =>
      change(w, async () => {
        await removePasskey(w.app, w.session!, w.params.id ?? "");
        setFlash(w, "passkey_removed");
        return redirect(w, "/account/security");
      }),
  ],
];

/** The JSON steps of adding a passkey (called by /static/passkeys.js). */
async function jsonStep(w: Web, fn: () => Promise<unknown>) {
  try {
    return json(w, 200, await fn());
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return json(w, e.status, { code: e.code, message: e.message });
  }
}

async function body(w: Web): Promise<Record<string, unknown>> {
  try {
    const b = await w.request.json();
    return b && typeof b === "object" ? (b as Record<string, unknown>) : {};
  } catch {
    throw new ServiceError(400, "json_invalid", "The request body is not JSON.");
  }
}

export const securityRoutes: WebRoute[] = [
  { method: "GET", path: "/account/security", access: "account", handler: (w) => page(w) },
  ...routes.map(([path, handler]) => ({
    method: "POST" as const,
    path,
    access: "account" as const,
    handler,
  })),
  {
    method: "POST",
    path: "/account/security/passkeys/options",
    access: "account",
    handler: (w) => jsonStep(w, () => passkeyRegistrationOptions(w.app, w.session!)),
  },
  {
    method: "POST",
    path: "/account/security/passkeys",
    access: "account",
    handler: (w) =>
      jsonStep(w, async () => {
        const b = await body(w);
        await registerPasskey(w.app, w.session!, {
          response: b.response,
          name: typeof b.name === "string" ? b.name : undefined,
        });
        await finishEnrolment(w);
        setFlash(w, "passkey_added");
        return { next: "/account/security" };
      }),
  },
];
