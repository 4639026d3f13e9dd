import type { Platform, PlatformRules } from "./types.ts";

/** The public Platform resource: the rules without the fields only the service uses. */
export function publicPlatform(rules: PlatformRules): Platform {
  return {
    provider: rules.provider,
    name: rules.name,
    max_length: rules.max_length,
    counting: rules.counting,
    threads: rules.threads,
    max_thread_parts: rules.max_thread_parts,
    media_required: rules.media_required,
    max_media: rules.max_media,
    images: { ...rules.images, max_bytes: { ...rules.images.max_bytes } },
    connect_fields: rules.connect_fields.map((f) => ({ ...f })),
  };
}
