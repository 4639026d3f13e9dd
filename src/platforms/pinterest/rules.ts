import { JPEG, PNG } from "../text/units.ts";
import type { PlatformRules } from "../types.ts";

// A pin is one image on a board (each board is a channel). The first link becomes the pin's destination, and a
// first line of at most 100 characters followed by more text becomes its title.
export const pinterest: PlatformRules = {
  provider: "pinterest",
  name: "Pinterest",
  max_length: 800,
  counting: "characters",
  threads: false,
  max_thread_parts: 1,
  media_required: true,
  max_media: 1,
  images: {
    max_bytes: { [JPEG]: 20_000_000, [PNG]: 20_000_000 },
    min_aspect_ratio: null,
    max_aspect_ratio: null,
    max_width_plus_height: null,
    max_length_with_media: null,
  },
  connect_fields: [],
  video: null,
  idempotent: false,
  media_by_link: false,
  test_only: false,
  video_only: false,
  title_max: 100,
};
