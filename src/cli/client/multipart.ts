// The CLI's upload of a file from disk: text fields and one file as a StreamedForm (src/lib/streamed-form.ts), the
// file read chunk by chunk as fetch asks for more, so memory stays flat whatever its size.

import { type StreamedFile, StreamedForm } from "../../lib/streamed-form.ts";

export interface FileUploadPart {
  /** The form field the file goes in. */
  field: string;
  path: string;
  /** The name the server is told. */
  filename: string;
  size: number;
  type: string;
}

export interface StreamedBody {
  body: ReadableStream<Uint8Array>;
  length: number;
  contentType: string;
}

/** The file changed while it was being sent: the body is abandoned, and the message says so (not a network fault). */
export class SourceChanged extends Error {}

/** The form's bytes, with its length and type. `progress` is told the file bytes sent so far. */
export function streamedForm(
  fields: Record<string, string>,
  file: FileUploadPart,
  progress?: (sent: number) => void,
): StreamedBody {
  const form = new StreamedForm();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(file.field, diskFile(file, progress));
  return { body: form.stream(), length: form.length, contentType: form.contentType };
}

/** The file as its bytes are read, counted: one that grew or shrank since it was measured would break the declared
 * length, so it is refused as what happened rather than sent as another form. */
function diskFile(file: FileUploadPart, progress?: (sent: number) => void): StreamedFile {
  const changed = () => new SourceChanged(`${file.path} changed while it was being sent`);
  return {
    filename: file.filename,
    type: file.type,
    size: file.size,
    async open() {
      let sent = 0;
      return Bun.file(file.path)
        .stream()
        .pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              sent += chunk.byteLength;
              if (sent > file.size) throw changed();
              progress?.(sent);
              controller.enqueue(chunk);
            },
            flush() {
              if (sent !== file.size) throw changed();
            },
          }),
        );
    },
  };
}
