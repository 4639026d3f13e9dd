// @atproto/api (its lexicons of every Bluesky record type: about 80 ms and 23 MiB) loads the first time a Bluesky
// channel is connected, published to or read, not at start-up. With require, not import(): the checks of its
// XRPCError in errors.ts are synchronous. The package has one entry for both, so both give the same classes.
import type * as Atproto from "@atproto/api";
import { once } from "../../lib/once.ts";

export const atproto = once(() => require("@atproto/api") as typeof Atproto);
