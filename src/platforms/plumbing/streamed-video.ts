// A video sent to a network as it is read from the bucket, never held whole: the file of a StreamedForm.
import type { StreamedFile } from "../../lib/streamed-form.ts";
import type { PublishMedia } from "../adapter.ts";

/** A medium as a streamed file, when it can be one: a video with its bytes' stream and size. */
export function streamedVideo(m: PublishMedia, filename: string): StreamedFile | null {
  if (m.kind !== "video" || !m.stream || m.size === undefined) return null;
  const open = m.stream.bind(m);
  return { filename, type: m.mime, size: m.size, open };
}
