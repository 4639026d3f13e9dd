// An in-process "browser" for dashboard tests: keeps the session cookie, reads the CSRF token out of the page
// it got, and sends forms the way a browser would (same-origin headers), or the way another site would.
import type { Dialect } from "../../src/db/migration.ts";
import type { Clock } from "../../src/lib/clock.ts";
import { type TestApp, testApp } from "./app.ts";

export interface Page {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
}

let browsers = 0;

export class TestBrowser {
  readonly cookies = new Map<string, string>();
  /** The CSRF token of the last page that had one. */
  csrf = "";
  /** Headers sent with every request (a User-Agent, say). */
  readonly headers: Record<string, string> = {};

  /** The client address the test app trusts from X-Client-Ip (see `webApp`), one per browser. */
  readonly ip = `198.51.${Math.floor(++browsers / 250) % 250}.${(browsers % 250) + 1}`;

  constructor(
    private readonly t: TestApp,
    readonly origin = "http://localhost",
  ) {}

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private keep(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const i = pair!.indexOf("=");
      const name = pair!.slice(0, i);
      const value = pair!.slice(i + 1);
      if (/Max-Age=0/.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string> } = {},
  ) {
    const res = await this.t.http.handle(
      new Request(`${this.origin}${path}`, {
        method,
        headers: { cookie: this.cookieHeader(), "x-client-ip": this.ip, ...this.headers, ...init.headers },
        body: init.body,
        redirect: "manual",
      }),
    );
    this.keep(res);
    const html = await res.text();
    const m = /name="_csrf" value="([^"]+)"/.exec(html);
    if (m) this.csrf = m[1]!;
    return { status: res.status, headers: res.headers, html, location: res.headers.get("location") } as Page;
  }

  get(path: string) {
    return this.request("GET", path);
  }

  /** A form post from this site, with the page's CSRF token unless one is given. */
  post(
    path: string,
    fields: Record<string, string>,
    opts: { site?: "same-origin" | "cross-site"; origin?: string } = {},
  ) {
    const body = new URLSearchParams({ _csrf: this.csrf, ...fields }).toString();
    const site = opts.site ?? "same-origin";
    return this.request("POST", path, {
      body,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": site,
        origin: opts.origin ?? (site === "same-origin" ? this.origin : "https://evil.example"),
      },
    });
  }

  /** Follows a 303 like a browser. */
  async follow(p: Page): Promise<Page> {
    if (!p.location) return p;
    return this.get(p.location);
  }

  async signIn(email: string, password: string): Promise<Page> {
    await this.get("/signin");
    return this.follow(await this.post("/signin", { email, password }));
  }
}

/** A test app for dashboard tests: it trusts X-Client-Ip as the client address (SVC_CLIENT_IP_HEADER). */
export const webApp = (
  dialect: Dialect,
  opts: { env?: Record<string, string>; url?: string; clock?: Clock } = {},
) =>
  testApp(dialect, {
    env: { SVC_CLIENT_IP_HEADER: "x-client-ip", ...opts.env },
    ...(opts.url ? { url: opts.url } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
