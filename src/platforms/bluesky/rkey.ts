// Deterministic record keys: a target's part always gets the same key, so a retry after an uncertain attempt
// looks the record up (and finds it) instead of creating a second one. Keys are TIDs (app.bsky.feed.post is
// keyed by TID): 53 bits of microseconds and 10 bits of clock ID, written in base32-sortable.
//
// The microseconds are the target's creation millisecond (its ID is a UUIDv7) times 1000 plus a slot of 25 (one
// per part; at most 25 parts) out of 40; the slot and the 10-bit clock ID together carry the low 15 bits of the
// ID's random part. IDs made in one millisecond by one process count up in those bits, so targets made in the same
// millisecond never share a key (up to 32,768 of them); two processes' targets of one channel in one millisecond
// share one with a chance of 1 in 32,768. The look-up also compares the record's text, so a shared key is refused,
// never mistaken for our own record.
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
  // The last three base32 characters are the ID's low 15 bits: a bijection onto (slot, clock) as 15 bits < 40 * 1024.
  let low = 0;
  for (const c of targetId.slice(-3)) low = low * 32 + ID_ALPHABET.indexOf(c);
  const slot = low % 40;
  const clock = Math.floor(low / 40);
  const micros = BigInt(idTime(targetId)) * 1000n + BigInt(slot * 25 + partIndex);
  let n = (micros << 10n) | BigInt(clock);
  let out = "";
  for (let i = 0; i < 13; i++) {
    out = S32[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return out;
}
