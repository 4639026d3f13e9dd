// Deterministic record keys: a target's part always gets the same key, so a retry after an uncertain attempt
// looks the record up (and finds it) instead of creating a second one. Keys are TIDs (app.bsky.feed.post is
// keyed by TID): 53 bits of microseconds and 10 bits of clock ID, written in base32-sortable.
//
// The microseconds are the target's creation millisecond (its ID is a UUIDv7) times 1000, plus a slot of 25 per
// target chosen by hash (40 slots) plus the part index (at most 25 parts); the clock ID is another 10 bits of the
// hash. Two targets of one channel get the same key only if they were created in the same millisecond AND agree
// on 15.3 bits of hash; the look-up also compares the record's text, so such a collision is refused, never
// mistaken for our own record.
import { createHash } from "node:crypto";

const S32 = "234567abcdefghijklmnopqrstuvwxyz";
const ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** The creation time (epoch ms) carried by one of our IDs: the first 10 base32 characters hold it. */
export function idTime(id: string): number {
  const body = id.slice(id.indexOf("_") + 1, id.indexOf("_") + 11);
  let ms = 0;
  for (const c of body) ms = ms * 32 + ID_ALPHABET.indexOf(c);
  return ms;
}

export function recordKey(targetId: string, partIndex: number): string {
  if (partIndex < 0 || partIndex >= 25) throw new Error(`part index ${partIndex} out of range`);
  const h = createHash("sha256").update(targetId).digest();
  const slot = h.readUInt16BE(0) % 40;
  const clock = h.readUInt16BE(2) & 0x3ff;
  const micros = BigInt(idTime(targetId)) * 1000n + BigInt(slot * 25 + partIndex);
  let n = (micros << 10n) | BigInt(clock);
  let out = "";
  for (let i = 0; i < 13; i++) {
    out = S32[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return out;
}
