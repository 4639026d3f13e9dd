// IDs are `<prefix>_<26 chars>`: a UUIDv7 written in lowercase Crockford base32, so they sort by creation time
// and a wrong prefix can be refused before any lookup (reference §1).

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export const PREFIXES = [
  "org",
  "brand",
  "user",
  "chan",
  "tmpl",
  "post",
  "ptgt",
  "evt",
  "whep",
  "whdel",
  "key",
  "req",
  "slot",
  "media",
  "adacct",
  "anlsrc",
  "mailacct",
  "nl",
  "nldel",
  "inv",
  "utok",
  "dev",
  "app",
  "opkey",
  "rshare",
  "rvl",
  "ntf",
  "audit",
  "att",
  "sess",
  "pwreset",
  "mail",
  "engr",
  "ssod",
] as const;
export type Prefix = (typeof PREFIXES)[number];

// The random part of the last ID made in each recent millisecond. IDs made in the same millisecond take the next
// value, so they sort in creation order; IDs of different milliseconds sort by time. Keyed by the millisecond (not
// "the last one") so that IDs stamped by different clocks in one process (a test's fake clock beside the system
// clock) cannot disturb each other's order.
const recent = new Map<number, Uint8Array>();
// The millisecond used last and its entry: a row and its children (a post, its targets, its event) are stamped
// with one time, and that entry is already the most recent, so the lookup and reordering are skipped.
let lastMs = Number.NaN;
let lastEntry: Uint8Array | undefined;

/** 16 bytes of UUIDv7: 48-bit ms timestamp, version, counter-ish randomness, variant. */
function uuidv7Bytes(now: number): Uint8Array {
  const b = new Uint8Array(16);
  const same = now === lastMs;
  let rand = same ? lastEntry : recent.get(now);
  if (rand) {
    // Most recently used last, so a millisecond still in use is never the one forgotten.
    if (!same) {
      recent.delete(now);
      recent.set(now, rand);
    }
    for (let i = rand.length - 1; i >= 0; i--) {
      rand[i] = (rand[i]! + 1) & 0xff;
      if (rand[i] !== 0) break;
    }
  } else {
    rand = crypto.getRandomValues(new Uint8Array(10));
    rand[0]! &= 0x0f; // leave headroom for increments within the millisecond
    if (recent.size >= 256) recent.delete(recent.keys().next().value as number);
    recent.set(now, rand);
  }
  lastMs = now;
  lastEntry = rand;
  const lastRand = rand;
  let t = now;
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  b.set(lastRand, 6);
  b[6] = 0x70 | (b[6]! & 0x0f);
  b[8] = 0x80 | (b[8]! & 0x3f);
  return b;
}

/**
 * 128 bits → 26 base32 chars (130 bits, the first char carries only 3 bits, so it is 0-7): bytes go into a small
 * bit accumulator that starts with the two zero bits above them, and each 5 bits out become a character. Plain
 * integer arithmetic: IDs are made for every row, and BigInt shifts were a measurable share of the publish worker.
 * The characters are written as bytes and decoded once: adding them to a string one by one made a 26-piece rope
 * that every later use (a Map key, an SQL parameter) had to flatten.
 */
const CODES = new TextEncoder().encode(ALPHABET);
const chars = new Uint8Array(26);
const ascii = new TextDecoder("latin1");

function encode(bytes: Uint8Array): string {
  let acc = 0;
  let bits = 2;
  let k = 0;
  for (let i = 0; i < 16; i++) {
    // At most 4 bits are left over between bytes, so 13 bits hold everything still to be written.
    acc = ((acc << 8) | bytes[i]!) & 0x1fff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      chars[k++] = CODES[(acc >> bits) & 31]!;
    }
  }
  return ascii.decode(chars);
}

export function newId(prefix: Prefix, now = Date.now()): string {
  return `${prefix}_${encode(uuidv7Bytes(now))}`;
}

const SHAPE = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/** True when `id` is a well-formed ID of this prefix. */
export function isId(prefix: Prefix, id: unknown): id is string {
  return (
    typeof id === "string" &&
    id.length === prefix.length + 27 &&
    id.startsWith(`${prefix}_`) &&
    SHAPE.test(id.slice(prefix.length + 1))
  );
}

/** The smallest ID of a prefix created at `ms`: lets a time bound be used as a cursor over time-sorted IDs. */
export function idAtTime(prefix: Prefix, ms: number): string {
  const b = new Uint8Array(16);
  let t = ms;
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  return `${prefix}_${encode(b)}`;
}
