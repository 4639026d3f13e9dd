// node:crypto on first use. In Bun it is a large module of its own, about 15 ms and 5 MiB to load, and nothing
// `svc all` does until a request or a task needs a hash, an HMAC or a cipher uses it (the instance ID and request
// IDs take Web Crypto's getRandomValues). Required, not imported: its callers are synchronous.
import type * as NodeCrypto from "node:crypto";
import { once } from "../lib/once.ts";

export const nodeCrypto = once(() => require("node:crypto") as typeof NodeCrypto);
