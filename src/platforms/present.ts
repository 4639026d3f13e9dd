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
    // Stated beside the image limits so a client can check a video before uploading it (the preview checks the
    // same rules against the stored video's index).
    video: rules.video && {
      ...rules.video,
      types: [...rules.video.types],
      codecs: rules.video.codecs && [...rules.video.codecs],
    },
    connect_fields: rules.connect_fields.map((f) => ({ ...f })),
  };
}
