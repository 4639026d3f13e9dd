// The platforms a channel can be connected to, with the rules a post is checked against. Public facts: any
// valid credential may read them, whatever its scopes.

import { publicPlatform } from "../../platforms/present.ts";
import { platforms } from "../../platforms/rules-registry.ts";
import type { Platform } from "../../platforms/types.ts";
import type { Actor } from "../actor.ts";
import type { ListEnvelope } from "../pagination.ts";

export function listPlatforms(_actor: Actor): ListEnvelope<Platform> {
  return { object: "list", data: platforms.map(publicPlatform), has_more: false, url: "/v1/platforms" };
}
