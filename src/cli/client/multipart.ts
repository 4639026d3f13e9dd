// A multipart/form-data body of text fields and one file, streamed from disk with its length known up front.
// Bun's fetch reads a FormData holding Bun.file() whole into memory (twice over for a 400 MB file), and a
// Blob made of [head, file, tail] loses the file's bytes, so the parts are framed by hand around the file's stream.
import { randomBytes } from "node:crypto";

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

const enc = new TextEncoder();

// The HTML form encoding of a name in a header parameter: quotes and line breaks percent-encoded.
const quoted = (s: string) => `"${s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")}"`;

function disposition(name: string, filename?: string): string {
  let d = `form-data; name=${quoted(name)}`;
  if (filename === undefined) return d;
  // A name outside ASCII also goes as RFC 5987 filename*, which the server's parser prefers; the plain one is the
  // fallback for a parser that does not read it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: printable ASCII is what passes as is
  const ascii = /^[\x20-\x7e]*$/.test(filename);
  d += `; filename=${quoted(ascii ? filename : filename.replace(/[^\x20-\x7e]/g, "_"))}`;
  if (!ascii) d += `; filename*=UTF-8''${encodeURIComponent(filename)}`;
  return d;
}

/**
 * The form's bytes: each field, then the file read chunk by chunk as fetch asks for more (a pull stream with no
 * queue ahead), so memory stays flat whatever the file's size. `progress` is told the file bytes sent so far.
 */
export function streamedForm(
  fields: Record<string, string>,
  file: FileUploadPart,
  progress?: (sent: number) => void,
): StreamedBody {
  const boundary = `svc-${randomBytes(16).toString("hex")}`;
  let head = "";
  for (const [name, value] of Object.entries(fields))
    head += `--${boundary}\r\nContent-Disposition: ${disposition(name)}\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: ${disposition(file.field, file.filename)}\r\nContent-Type: ${file.type}\r\n\r\n`;
  const headBytes = enc.encode(head);
  const tailBytes = enc.encode(`\r\n--${boundary}--\r\n`);
  let stage: "head" | "file" | "tail" | "done" = "head";
  const open = () => Bun.file(file.path).stream().getReader();
  let reader: ReturnType<typeof open> | null = null;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        if (stage === "head") {
          stage = "file";
          c.enqueue(headBytes);
          return;
        }
        if (stage === "file") {
          reader ??= open();
          const next = await reader.read();
          if (!next.done) {
            sent += next.value.byteLength;
            // A file that grew since it was measured would break the declared length: refuse rather than send
            // a body the server reads as another form.
            if (sent > file.size) throw new SourceChanged(`${file.path} changed while it was being sent`);
            progress?.(sent);
            c.enqueue(next.value);
            return;
          }
          if (sent !== file.size) throw new SourceChanged(`${file.path} changed while it was being sent`);
          stage = "tail";
        }
        if (stage === "tail") {
          stage = "done";
          c.enqueue(tailBytes);
          return;
        }
        c.close();
      },
      async cancel() {
        await reader?.cancel();
      },
    },
    { highWaterMark: 0 },
  );
  return {
    body,
    length: headBytes.byteLength + file.size + tailBytes.byteLength,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
