// Opening a page in the person's browser: $BROWSER when set, else the platform's opener. Failure is not an error;
// the URL is printed either way.
export async function openBrowser(url: string, env: Record<string, string | undefined> = process.env) {
  const cmd = env.BROWSER
    ? [env.BROWSER, url]
    : process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : ["xdg-open", url];
  try {
    const child = Bun.spawn(cmd, { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    return (await child.exited) === 0;
  } catch {
    return false;
  }
}

/** Waits for a line on a terminal (Enter: the person's go-ahead to open the browser); answers what was typed. */
export async function readLine(): Promise<string> {
  const { createInterface } = await import("node:readline");
  const rl = createInterface({ input: process.stdin });
  const line = await new Promise<string>((resolve) => rl.once("line", resolve));
  rl.close();
  return line;
}
