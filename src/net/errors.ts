// Failures of the guarded outbound client. Messages name the origin (scheme, host, port) and the reason, never
// the path, query, resolved private address or credentials, so they can be stored in a delivery attempt shown to
// the tenant and written to logs.

export type OutboundErrorKind =
  | "blocked_address"
  | "invalid_url"
  | "timeout"
  | "connection"
  | "too_many_redirects"
  | "tls"
  /** A streamed request body failed or was not the length announced: the request was cut before it was whole. */
  | "body";

export class OutboundError extends Error {
  readonly kind: OutboundErrorKind;
  constructor(kind: OutboundErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OutboundError";
    this.kind = kind;
  }
}

/** Scheme, host and port of a URL, for messages: no path, query or userinfo. */
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

const CONNECTION_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed while sending",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "DNS lookup failed temporarily",
  EAI_NONAME: "host not found",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EADDRNOTAVAIL: "address not available",
};

/** Turns whatever node:http or the resolver threw into an OutboundError with a message safe to log. */
export function toOutboundError(err: unknown, url: URL): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
  const origin = originOf(url);
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|HOSTNAME_MISMATCH|ALTNAME/i.test(code)) {
    return new OutboundError("tls", `TLS handshake with ${origin} failed (${code})`, { cause: err });
  }
  if (code === "ETIMEDOUT") return new OutboundError("timeout", `${origin} timed out`, { cause: err });
  if (code.startsWith("HPE_")) {
    return new OutboundError("connection", `${origin} sent an invalid HTTP response (${code})`, {
      cause: err,
    });
  }
  const reason = CONNECTION_REASONS[code] ?? `connection failed${code ? ` (${code})` : ""}`;
  return new OutboundError("connection", `${origin}: ${reason}`, { cause: err });
}
