// The dashboard's scripts and styles, served by svc itself (no CDN): htmx and the WebAuthn browser helper from
// their npm packages, our CSS and small scripts from views/static/. Imported as files, so `bun build --compile`
// embeds them in the executable (each import is only a path until a file is first asked for); read once, then
// kept in memory.
import { readFileSync } from "node:fs";
import htmx from "htmx.org/dist/htmx.min.js" with { type: "file" };
// The package exports only its modules; the browser bundle sits beside them.
import webauthn from "../../../node_modules/@simplewebauthn/browser/dist/bundle/index.umd.min.js" with {
  type: "file",
};
import appCss from "../../../views/static/app.css" with { type: "file" };
import appJs from "../../../views/static/app.js" with { type: "file" };
import calendarJs from "../../../views/static/calendar.js" with { type: "file" };
import passkeysJs from "../../../views/static/passkeys.js" with { type: "file" };
import uploadJs from "../../../views/static/upload.js" with { type: "file" };
import { SECURITY_HEADERS } from "../respond.ts";

const FILES: Record<string, { path: string; type: string }> = {
  "htmx.min.js": { path: htmx, type: "text/javascript" },
  "webauthn.js": { path: webauthn, type: "text/javascript" },
  "app.js": { path: appJs, type: "text/javascript" },
  "passkeys.js": { path: passkeysJs, type: "text/javascript" },
  "upload.js": { path: uploadJs, type: "text/javascript" },
  "calendar.js": { path: calendarJs, type: "text/javascript" },
  "app.css": { path: appCss, type: "text/css" },
};

const cache = new Map<string, Uint8Array>();

export function staticFile(name: string): Response {
  const f = FILES[name];
  if (!f) return new Response("Not found", { status: 404, headers: { ...SECURITY_HEADERS } });
  let body = cache.get(name);
  if (!body) {
    body = readFileSync(f.path);
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
