// A browser as a person recognises it ("Chrome 131 on macOS"), read from its User-Agent by bowser; the raw string
// when bowser knows neither browser nor system (a script, a CLI).
import Bowser from "bowser";

export function agentLabel(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const p = Bowser.getParser(userAgent);
  const browser = p.getBrowserName();
  const os = p.getOSName();
  if (!browser && !os) return userAgent;
  const major = p.getBrowserVersion()?.split(".")[0];
  const name = browser ? `${browser}${major ? ` ${major}` : ""}` : "A browser";
  return os ? `${name} on ${os}` : name;
}
