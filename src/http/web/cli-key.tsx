// GET/POST /cli?device=<name>: the fallback CLI sign-in; the key is shown once, on the answer to the POST.
import { CliKeyPage, CliKeyShownPage } from "../../../views/cli-key.tsx";
import { issueCliKey } from "../../domain/identity/api-keys/cli-key.ts";
import { ServiceError } from "../../lib/errors.ts";
import { fieldErrors, frame, render, type Web } from "./page.ts";
import type { WebRoute } from "./route.ts";
import { confirmIfGiven, sudoNeeded } from "./sudo.ts";

const TITLE = "A key for the command line";

async function page(w: Web) {
  const device = (w.url.searchParams.get("device") ?? "").slice(0, 100) || "command line";
  return render(
    w,
    <CliKeyPage
      f={frame(w, TITLE)}
      device={device}
      livemode={w.session?.livemode === 1}
      sudo={sudoNeeded(w)}
    />,
  );
}

async function create(w: Web) {
  const device = w.form.get("device") ?? "";
  const livemode = w.form.get("livemode") === "true";
  try {
    await confirmIfGiven(w);
    const key = await issueCliKey(
      w.app,
      w.member!.actor,
      { device_name: device, livemode },
      { confirmedAt: w.session!.confirmed_at },
    );
    return render(
      w,
      <CliKeyShownPage f={frame(w, TITLE)} secret={key.secret!} livemode={key.livemode} name={key.name} />,
    );
  } catch (e) {
    if (!(e instanceof ServiceError)) throw e;
    const errors = e.code === "reauthentication_required" ? { password: e.message } : fieldErrors(e);
    return render(
      w,
      <CliKeyPage
        f={frame(w, TITLE)}
        device={device}
        livemode={livemode}
        sudo={sudoNeeded(w)}
        errors={errors}
      />,
      e.status,
      e.headers,
    );
  }
}

export const cliKeyRoutes: WebRoute[] = [
  // The page exists only to mint an org key: it is a write, shown only while the org is active.
  { method: "GET", path: "/cli", access: "member", org: "write", handler: page },
  { method: "POST", path: "/cli", access: "member", org: "write", handler: create },
];
