// GET/POST /device, POST /device/approve and /device/deny: the CLI sign-in's approval page. The code is typed,
// never taken from the link.
import { DeviceCodePage, DeviceConfirmPage, DeviceDonePage } from "../../../views/device.tsx";
import {
  approveDeviceAuthorization,
  denyDeviceAuthorization,
  findDeviceAuthorization,
} from "../../domain/identity/devices/service.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, render, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";
import { limitSignIn } from "./signin.tsx";
import { confirmIfGiven, sudoNeeded } from "./sudo.ts";

const TITLE = "Sign in a command line";

const codeOf = (w: Web) => (w.form.get("user_code") ?? "").slice(0, 40);

async function codePage(w: Web) {
  return render(w, <DeviceCodePage f={frame(w, TITLE)} />);
}

/** A refusal about the code itself sends the person back to typing it, with the message beside the field. */
async function backToCode(w: Web, e: ServiceError) {
  const errors = { user_code: e.message };
  return render(w, <DeviceCodePage f={frame(w, TITLE)} code={codeOf(w)} errors={errors} />, e.status);
}

async function lookup(w: Web) {
  const code = codeOf(w);
  try {
    // Guessing codes is limited like guessing passwords (per client address).
    limitSignIn(w);
    const device = await findDeviceAuthorization(w.app, w.member!.actor, code, w.meta.ip);
    return render(
      w,
      <DeviceConfirmPage f={frame(w, TITLE)} code={code} device={device} sudo={sudoNeeded(w)} />,
    );
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return backToCode(w, e);
  }
}

async function approve(w: Web) {
  const code = codeOf(w);
  try {
    await confirmIfGiven(w);
    const device = await approveDeviceAuthorization(w.app, w.member!.actor, {
      userCode: code,
      confirmedAt: w.session!.confirmed_at,
      viaSso: w.session!.sso_org_id === w.member!.org.id,
      address: w.meta.ip,
    });
    return render(w, <DeviceDonePage f={frame(w, "Signed in")} approved device={device} />);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    if (e.param === "user_code") return backToCode(w, e);
    // A wrong or missing password: the same confirmation page, the error beside the password field.
    const device = await findDeviceAuthorization(w.app, w.member!.actor, code, w.meta.ip).catch(() => null);
    if (!device) return backToCode(w, e);
    const errors = e.code === "reauthentication_required" ? { password: e.message } : fieldErrors(e);
    return render(
      w,
      <DeviceConfirmPage
        f={frame(w, TITLE)}
        code={code}
        device={device}
        sudo={sudoNeeded(w)}
        errors={errors}
      />,
      e.status,
      e.headers,
    );
  }
}

async function deny(w: Web) {
  try {
    const device = await denyDeviceAuthorization(w.app, w.member!.actor, {
      userCode: codeOf(w),
      address: w.meta.ip,
    });
    return render(w, <DeviceDonePage f={frame(w, "Sign-in denied")} approved={false} device={device} />);
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    return backToCode(w, e);
  }
}

// The token a CLI gets is the person's, not the org's: every request it makes is checked against the status
// of the org it names, so approving one changes nothing in this org.
export const deviceRoutes: WebRoute[] = [
  { method: "GET", path: "/device", access: "member", org: "none", handler: codePage },
  { method: "POST", path: "/device", access: "member", org: "none", handler: lookup },
  { method: "POST", path: "/device/approve", access: "member", org: "none", handler: approve },
  { method: "POST", path: "/device/deny", access: "member", org: "none", handler: deny },
];
