// Colour only on a terminal, never with NO_COLOR (any value) or TERM=dumb.
export interface Colors {
  bold(s: string): string;
  dim(s: string): string;
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

export function useColor(isTty: boolean, env: Record<string, string | undefined> = process.env): boolean {
  return isTty && env.NO_COLOR === undefined && env.TERM !== "dumb";
}

const wrap = (on: boolean, open: number, close: number) => (s: string) =>
  on ? `\x1b[${open}m${s}\x1b[${close}m` : s;

export function colors(on: boolean): Colors {
  return {
    bold: wrap(on, 1, 22),
    dim: wrap(on, 2, 22),
    green: wrap(on, 32, 39),
    red: wrap(on, 31, 39),
    yellow: wrap(on, 33, 39),
    cyan: wrap(on, 36, 39),
  };
}

/** The visible width of a string that may carry colour codes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts a colour code is the point
export const visibleLength = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "").length;
