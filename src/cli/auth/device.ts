// The device sign-in (RFC 8628, interface.md Authentication 3): ask for a code, show it, let the person approve it
// in the dashboard's /device page, poll at the server's interval (5 s longer after each slow_down) until a user
// token, a denial or the code's expiry.
import { hostname } from "node:os";
import { ApiError, send } from "../client/api.ts";
import { openBrowser, readLine } from "../client/browser.ts";
import type { Ctx } from "../client/command.ts";
import { spinner } from "../client/prompt.ts";

export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  expires_in: number;
  interval: number;
}

export const deviceName = () => `svc on ${hostname()}`.slice(0, 100);

/** The code, or null when the server has no device sign-in (then the /cli paste is the way in). */
export async function startDevice(url: string, livemode: boolean): Promise<DeviceCode | null> {
  const r = await send({ url }, "POST", "/v1/auth/device", { body: { device_name: deviceName(), livemode } });
  if (r.status === 404 || r.status === 405) return null;
  if (r.status !== 200 && r.status !== 201) throw problem(r.status, r.body);
  return r.body as DeviceCode;
}

function problem(status: number, body: unknown): ApiError {
  const b = (body ?? {}) as { code?: string; detail?: string; errors?: [] };
  return new ApiError(status, b.code ?? `http_${status}`, b.detail ?? `HTTP ${status}`, b.errors ?? [], body);
}

const FAILURES: Record<string, string> = {
  access_denied: "the sign-in was denied in the dashboard",
  expired_token: "the one-time code expired before it was approved; run svc auth login again",
  invalid_grant: "the device code is no longer valid; run svc auth login again",
};

/**
 * Shows the code, offers the browser, polls; answers the user token, or null when the person at the terminal
 * chose to paste a key from the /cli page instead.
 */
export async function approveDevice(ctx: Ctx, url: string, code: DeviceCode): Promise<string | null> {
  const io = ctx.io;
  io.err(`! First copy your one-time code: ${ctx.c.bold(code.user_code)}`);
  if (ctx.interactive) {
    io.err(
      `Press Enter to open ${code.verification_uri} in your browser (or type "paste" to paste a key instead)...`,
    );
    if (/^\s*p(aste)?\s*$/i.test(await readLine())) return null;
    if (!(await openBrowser(code.verification_uri, ctx.env)))
      io.err(`Could not open a browser; open ${code.verification_uri} yourself.`);
  } else {
    io.err(`Open ${code.verification_uri} in a browser, sign in and enter the code.`);
  }
  const s = ctx.interactive ? spinner() : null;
  s?.start("Waiting for approval in the browser");
  let interval = Math.max(1, code.interval) * 1000;
  const deadline = Date.now() + code.expires_in * 1000;
  try {
    while (Date.now() < deadline) {
      await Bun.sleep(interval);
      const r = await send({ url }, "POST", "/v1/auth/device/token", {
        body: { device_code: code.device_code },
      });
      if (r.status === 200 && typeof r.body?.access_token === "string") {
        s?.stop("Approved.");
        return r.body.access_token as string;
      }
      const err = problem(r.status, r.body);
      if (err.code === "authorization_pending") {
        const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
        s?.message(
          `Waiting for approval in the browser (${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left)`,
        );
        continue;
      }
      if (err.code === "slow_down") {
        interval += 5000;
        continue;
      }
      s?.error("Not approved.");
      throw new Error(FAILURES[err.code] ?? `${err.message} (${err.code})`);
    }
    s?.error("Expired.");
    throw new Error(FAILURES.expired_token);
  } finally {
    // A thrown error above already stopped the spinner; stopping twice is harmless.
  }
}
