// GET /docs/errors: the install's own page of error codes, where every problem's `doc_url` points. Public (a
// client reading a problem may hold no session) and the same for everyone, so it is rendered once per process.
import { newId } from "../../lib/ids.ts";
import { SECURITY_HEADERS } from "../respond.ts";

let html: string | undefined;

export async function errorCodesPage(): Promise<Response> {
  // The view loads with the first request for the page, not at start-up.
  if (html === undefined) {
    const { ErrorCodesPage } = await import("../../../views/error-codes.tsx");
    html = `<!doctype html>${ErrorCodesPage().toString()}`;
  }
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "Request-Id": newId("req"),
      ...SECURITY_HEADERS,
    },
  });
}
