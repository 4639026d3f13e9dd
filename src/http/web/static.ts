// The dashboard's scripts and styles, served by svc itself (no CDN): htmx and the WebAuthn browser helper from
// their npm packages, our CSS and small scripts from views/static/. Read once, then kept in memory.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SECURITY_HEADERS } from "../respond.ts";

const VIEWS = join(import.meta.dir, "../../../views/static");
const pkg = (spec: string) => Bun.resolveSync(spec, import.meta.dir);

const FILES: Record<string, { path: () => string; type: string }> = {
  "htmx.min.js": { path: () => pkg("htmx.org/dist/htmx.min.js"), type: "text/javascript" },
  "webauthn.js": {
    // The package exports only its modules; the browser bundle sits beside them.
    path: () => join(dirname(pkg("@simplewebauthn/browser")), "../dist/bundle/index.umd.min.js"),
    type: "text/javascript",
  },
  "app.js": { path: () => join(VIEWS, "app.js"), type: "text/javascript" },
  "passkeys.js": { path: () => join(VIEWS, "passkeys.js"), type: "text/javascript" },
  "calendar.js": { path: () => join(VIEWS, "calendar.js"), type: "text/javascript" },
  "app.css": { path: () => join(VIEWS, "app.css"), type: "text/css" },
};

const cache = new Map<string, Uint8Array>();

export function staticFile(name: string): Response {
  const f = FILES[name];
  if (!f) return new Response("Not found", { status: 404, headers: { ...SECURITY_HEADERS } });
  let body = cache.get(name);
  if (!body) {
    body = readFileSync(f.path());
    cache.set(name, body);
  }
  return new Response(body, {
    headers: {
      "Content-Type": `${f.type}; charset=utf-8`,
      "Cache-Control": "public, max-age=300",
      ...SECURITY_HEADERS,
    },
  });
}
