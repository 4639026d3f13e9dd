// A command in a real pseudo-terminal (Bun.spawn's `terminal` option): what a person sees and types. stdin,
// stdout and stderr are all the terminal, so the command takes its terminal paths (tables, colour, prompts).

export interface Pty {
  /** Everything written so far, with colour and cursor codes. */
  readonly raw: string;
  /** Everything written so far, without escape codes. */
  readonly screen: string;
  write(keys: string): void;
  /** Waits until the output (without escape codes) after `from` matches. */
  waitFor(re: RegExp, timeoutMs?: number, from?: number): Promise<string>;
  exited: Promise<number>;
  kill(): void;
}

export const KEY = { enter: "\r", tab: "\t", down: "\x1b[B", up: "\x1b[A", space: " ", ctrlC: "\x03" };

// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is being removed
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[=>]|\r/g;
export const stripAnsi = (s: string) => s.replace(ESCAPES, "");

export function spawnPty(cmd: string[], env: Record<string, string>, cwd?: string): Pty {
  let raw = "";
  const decoder = new TextDecoder();
  const proc = Bun.spawn(cmd, {
    env,
    cwd,
    terminal: {
      cols: 120,
      rows: 40,
      data(_t, d) {
        raw += decoder.decode(d, { stream: true });
      },
    },
  });
  const pty: Pty = {
    get raw() {
      return raw;
    },
    get screen() {
      return stripAnsi(raw);
    },
    write(keys) {
      proc.terminal!.write(keys);
    },
    async waitFor(re, timeoutMs = 15_000, from = 0) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const text = stripAnsi(raw.slice(from));
        if (re.test(text)) return text;
        if (Date.now() > until) throw new Error(`timed out waiting for ${re} in:\n${text}`);
        await Bun.sleep(50);
      }
    },
    exited: proc.exited,
    kill() {
      proc.kill();
    },
  };
  return pty;
}
