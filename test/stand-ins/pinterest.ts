// Pinterest's API v5 (developers.pinterest.com/docs/api/v5: user_account/get, boards/list with its bookmark,
// boards/get, pins/create, pins/get with pin_metrics; "Rate limits"; errors as {code, message}) for accounts signed in with OAuth 2: the
// account a token belongs to is asked of the real authorization server that issued it (oidc-provider), so a
// revoked grant is refused. Every request and answer is checked against pinterest/api-description's v5 OpenAPI,
// mounted under /v5 as Pinterest is.
import { type Answer, type StandIn, startStandIn } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface PinterestBoard {
  id: string;
  owner: string;
  name: string;
}

export interface PinterestPin {
  id: string;
  board_id: string;
  title: string | null;
  description: string | null;
  link: string | null;
  alt_text: string | null;
  content_type: string;
  bytes: Buffer;
  /** What GET /pins/{pin_id}?pin_metrics=true reports as lifetime_metrics (a test sets them). */
  metrics: { reaction: number; comment: number; impression: number; pin_click: number };
  deleted: boolean;
}

export interface PinterestStandIn extends StandIn {
  boards: PinterestBoard[];
  pins: PinterestPin[];
  /** Gives an account these boards. */
  addBoards(account: string, names: string[]): PinterestBoard[];
}

/**
 * api-specs/README.md, known defect: ten schemas (Pin.creative_type among them) say `nullable: true` without a
 * `type`, which ajv refuses to compile. In memory only, `nullable` is dropped where no `type` stands beside it
 * (such a schema takes any type already, null included).
 */
function dropUntypedNullable(doc: Record<string, unknown>): Record<string, unknown> {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    if (o.nullable === true && o.type === undefined) delete o.nullable;
    for (const child of Object.values(o)) walk(child);
  };
  walk(doc);
  return doc;
}

const error = (status: number, code: number, message: string): Answer => ({
  status,
  body: { code, message },
});

export async function startPinterest(auth: {
  accountOf(token: string): Promise<string | null>;
}): Promise<PinterestStandIn> {
  const spec = await loadSpec({ file: "pinterest/openapi.json", convert: dropUntypedNullable });
  const boards: PinterestBoard[] = [];
  const pins: PinterestPin[] = [];
  let next = 549_755_885_000;
  const boardJson = (b: PinterestBoard) => ({
    id: b.id,
    name: b.name,
    description: null,
    owner: { username: b.owner },
    privacy: "PUBLIC",
  });
  const s = startStandIn({
    spec,
    route: (path) => (path.startsWith("/v5/") ? { path: path.slice(3) } : null),
    invalid: (problems) => error(400, 1, `Invalid request: ${problems.join("; ")}`),
    failure(kind) {
      if (kind === "rate_limited")
        return { ...error(429, 8, "Rate limit exceeded"), headers: { "retry-after": "60" } };
      if (kind === "revoked") return error(401, 2, "Authentication failed.");
      return error(500, 3, "Internal error");
    },
    documentedElsewhere: { 500: "docs/api/v5 errors: 500 Internal Server Error ({code, message})" },
    async handle(req) {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const account = token ? await auth.accountOf(token) : null;
      if (!account) return error(401, 2, "Authentication failed.");
      if (req.method === "GET" && req.path === "/user_account")
        return {
          status: 200,
          body: {
            account_type: "BUSINESS",
            username: account,
            board_count: boards.filter((b) => b.owner === account).length,
          },
        };
      if (req.method === "GET" && req.path === "/boards") {
        const size = Number(req.query.page_size ?? 25);
        const mine = boards.filter((b) => b.owner === account);
        const from = req.query.bookmark ? Number(req.query.bookmark) : 0;
        const page = mine.slice(from, from + size);
        return {
          status: 200,
          body: {
            items: page.map(boardJson),
            bookmark: from + size < mine.length ? String(from + size) : null,
          },
        };
      }
      const one = /^\/boards\/(\d+)$/.exec(req.path);
      if (req.method === "GET" && one) {
        const b = boards.find((x) => x.id === one[1] && x.owner === account);
        return b ? { status: 200, body: boardJson(b) } : error(404, 40, "Board not found.");
      }
      const getPin = /^\/pins\/(\d+)$/.exec(req.path);
      // docs "Delete Pin": the owner of the pin's board deletes it (204); a pin already gone, or on another
      // account's board, is not found.
      if (req.method === "DELETE" && getPin) {
        const pin = pins.find((p) => p.id === getPin[1] && !p.deleted);
        const board = pin && boards.find((b) => b.id === pin.board_id);
        if (!pin || !board) return error(404, 50, "Pin not found.");
        if (board.owner !== account) return error(403, 29, "You are not permitted to access that resource.");
        pin.deleted = true;
        return { status: 204 };
      }
      if (req.method === "GET" && getPin) {
        // docs "Get Pin": a pin on one of the account's boards, with 90-day and lifetime metrics on request.
        const pin = pins.find((p) => p.id === getPin[1] && !p.deleted);
        const board = pin && boards.find((b) => b.id === pin.board_id && b.owner === account);
        if (!pin || !board) return error(404, 50, "Pin not found.");
        return {
          status: 200,
          body: {
            id: pin.id,
            board_id: pin.board_id,
            title: pin.title,
            description: pin.description,
            link: pin.link,
            alt_text: pin.alt_text,
            created_at: new Date().toISOString(),
            ...(req.query.pin_metrics === "true"
              ? {
                  pin_metrics: {
                    "90d": {
                      pin_click: pin.metrics.pin_click,
                      impression: pin.metrics.impression,
                      clickthrough: 0,
                    },
                    lifetime_metrics: { ...pin.metrics, clickthrough: 0 },
                  },
                }
              : {}),
          },
        };
      }
      if (req.method === "POST" && req.path === "/pins") {
        const b = req.body as {
          board_id: string;
          title?: string;
          description?: string;
          link?: string;
          alt_text?: string;
          media_source: { content_type: string; data: string };
        };
        const board = boards.find((x) => x.id === b.board_id && x.owner === account);
        if (!board) return error(404, 40, "Board not found.");
        const pin: PinterestPin = {
          id: String(++next),
          board_id: board.id,
          title: b.title ?? null,
          description: b.description ?? null,
          link: b.link ?? null,
          alt_text: b.alt_text ?? null,
          content_type: b.media_source.content_type,
          bytes: Buffer.from(b.media_source.data, "base64"),
          metrics: { reaction: 0, comment: 0, impression: 0, pin_click: 0 },
          deleted: false,
        };
        pins.push(pin);
        return {
          status: 201,
          body: {
            id: pin.id,
            board_id: pin.board_id,
            title: pin.title,
            description: pin.description,
            link: pin.link,
            alt_text: pin.alt_text,
            created_at: new Date().toISOString(),
          },
        };
      }
      return error(404, 404, "Not found.");
    },
  });
  return Object.assign(s, {
    boards,
    pins,
    addBoards(account: string, names: string[]) {
      const made = names.map((name) => ({ id: String(++next), owner: account, name }));
      boards.push(...made);
      return made;
    },
  });
}
