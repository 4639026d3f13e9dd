// A multipart/form-data body built as a stream, for uploading a large file without holding it in memory (a video
// to a network, a file from the CLI): the fields and each part's headers are small strings, and a file's bytes are
// read from its source as the request is sent, no further ahead than the request takes them. Its length is counted
// up front from the files' known sizes, so it goes with a Content-Length (servers that refuse chunked uploads take
// it), and a file whose source gives another number of bytes fails the upload before it is whole.
// (Bun's fetch reads a FormData holding a Bun.file() whole into memory, and a Blob of [head, file, tail] loses the
// file's bytes, so the parts are framed here.)

export interface StreamedFile {
  filename: string;
  type: string;
  /** Exactly how many bytes `open` gives. */
  size: number;
  open(): Promise<ReadableStream<Uint8Array>>;
}

/** What is used of a file's stream reader (Bun's and node:stream/web's types differ in the rest). */
interface FileReader {
  cancel(reason?: unknown): Promise<void>;
}

type Part = { name: string; value: string } | { name: string; file: StreamedFile };

const CRLF = "\r\n";
const encoder = new TextEncoder();

// As browsers write names in a part's header: a quote or a line break cannot end it early.
const quoted = (s: string) => s.replaceAll('"', "%22").replaceAll("\r", "%0D").replaceAll("\n", "%0A");

/** A file's name in its part's header. One outside ASCII also goes as RFC 5987 `filename*`, which parsers prefer;
 * the plain one, with `_` for what is not ASCII, is the fallback. */
function filenameParams(filename: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: printable ASCII is what passes as is
  if (/^[\x20-\x7e]*$/.test(filename)) return `; filename="${quoted(filename)}"`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: printable ASCII is what passes as is
  const plain = filename.replace(/[^\x20-\x7e]/g, "_");
  return `; filename="${quoted(plain)}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** A file's source gave more or fewer bytes than its declared size: the body was cut before it was whole. */
export class SourceLengthError extends Error {}

export class StreamedForm {
  readonly boundary = `svc-${crypto.randomUUID().replaceAll("-", "")}`;
  private readonly parts: Part[] = [];

  append(name: string, value: string): void;
  append(name: string, file: StreamedFile): void;
  append(name: string, value: string | StreamedFile): void {
    this.parts.push(typeof value === "string" ? { name, value } : { name, file: value });
  }

  get contentType(): string {
    return `multipart/form-data; boundary=${this.boundary}`;
  }

  private head(p: Part): Uint8Array {
    const disposition = `Content-Disposition: form-data; name="${quoted(p.name)}"`;
    return encoder.encode(
      "file" in p
        ? `--${this.boundary}${CRLF}${disposition}${filenameParams(p.file.filename)}${CRLF}Content-Type: ${p.file.type}${CRLF}${CRLF}`
        : `--${this.boundary}${CRLF}${disposition}${CRLF}${CRLF}`,
    );
  }

  private tail(): Uint8Array {
    return encoder.encode(`--${this.boundary}--${CRLF}`);
  }

  /** The body's length in bytes. */
  get length(): number {
    let n = this.tail().byteLength;
    for (const p of this.parts) {
      n += this.head(p).byteLength + 2;
      n += "file" in p ? p.file.size : encoder.encode(p.value).byteLength;
    }
    return n;
  }

  /** The body, read part by part as it is sent; cancelling it releases the file being read, even mid-read. */
  stream(): ReadableStream<Uint8Array> {
    const reading: { file: FileReader | null } = { file: null };
    const chunks = this.chunks(reading);
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        async cancel() {
          await reading.file?.cancel().catch(() => {});
          await chunks.return(undefined);
        },
      },
      // Nothing queued ahead: the next chunk is read when the request asks for it.
      { highWaterMark: 0 },
    );
  }

  private async *chunks(reading: { file: FileReader | null }): AsyncGenerator<Uint8Array, void, undefined> {
    const newline = encoder.encode(CRLF);
    for (const p of this.parts) {
      yield this.head(p);
      if ("file" in p) yield* fileBytes(p.file, reading);
      else yield encoder.encode(p.value);
      yield newline;
    }
    yield this.tail();
  }
}

async function* fileBytes(
  file: StreamedFile,
  reading: { file: FileReader | null },
): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = (await file.open()).getReader();
  reading.file = reader;
  let read = 0;
  let whole = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      if (read > file.size)
        throw new SourceLengthError(`${file.filename} is longer than its ${file.size} bytes`);
      yield value;
    }
    whole = true;
  } finally {
    reading.file = null;
    if (!whole) await reader.cancel().catch(() => {});
  }
  if (read !== file.size)
    throw new SourceLengthError(`${file.filename} ended after ${read} of its ${file.size} bytes`);
}
