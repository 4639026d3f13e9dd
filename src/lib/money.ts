// Money in a currency's minor unit (cents, yen, fils): how many decimals a currency has, and a decimal amount as
// the networks write it ("12.34") turned into whole minor units without passing through a binary float.

/** ISO 4217 minor-unit digits (0 for JPY, 3 for KWD, 2 for most), from the runtime's currency data. */
export function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}

/** "12.345" in USD → 1235 (half away from zero at the last kept digit); null when it is not a decimal number. */
export function toMinor(amount: string | number, currency: string): number | null {
  const text = typeof amount === "number" ? String(amount) : amount.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const digits = minorDigits(currency);
  const frac = (m[3] ?? "").padEnd(digits + 1, "0");
  let whole = Number(m[2]) * 10 ** digits + Number(frac.slice(0, digits) || "0");
  if (Number(frac[digits]) >= 5) whole += 1;
  return m[1] === "-" ? -whole : whole;
}

/** A valid ISO 4217 code the runtime knows. */
export function isCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat("en", { style: "currency", currency: code });
    return true;
  } catch {
    return false;
  }
}
