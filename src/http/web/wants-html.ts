// Whether a request comes from a browser navigating: apart from the error page (browser-error.tsx), so the server
// asks it at start without loading the dashboard's views.

/** A browser navigating asks for HTML by name; API clients send application/json, `*` or nothing. */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}
