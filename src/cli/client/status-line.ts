// Progress on a terminal's stderr outside a guided session: one line rewritten in place while the work runs, and
// left behind as a single finished line (a clack spinner would open its frame with a lone bar line first).
export interface StatusLine {
  update(text: string): void;
  /** Replaces the line with its final text and ends it. */
  done(text: string): void;
}

export function statusLine(stream: NodeJS.WriteStream = process.stderr): StatusLine {
  let last = "";
  // A line longer than the terminal would wrap, and \r goes back over its last row only.
  // A terminal that reports no width (0) is left to wrap.
  const fit = (s: string) => {
    const w = (stream.columns || 0) - 1;
    return w > 1 && s.length > w ? `${s.slice(0, w - 1)}…` : s;
  };
  return {
    update(text) {
      const s = fit(text);
      if (s === last) return;
      last = s;
      stream.write(`\r\x1b[2K${s}`);
    },
    done(text) {
      stream.write(`\r\x1b[2K${text}\n`);
    },
  };
}
