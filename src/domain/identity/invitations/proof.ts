// The address proof of an invitation: a second random secret, mailed only to the invited address, whose SHA-256 is
// stored on the invitation. The invitation link alone (the one its admin is shown and may pass on) lets no one make
// an account for the address; the proof does, because only the address's owner can read it. A new proof replaces
// the previous one.
import type { App } from "../../../app/context.ts";
import { randomBase62, safeEqual, sha256hex } from "../../../crypto/hash.ts";

const hashProof = (proof: string) => sha256hex(`invitation-proof:${proof}`);

/** Makes and stores a new proof for the invitation; returns it (the caller mails it, never shows it). */
export async function newProof(app: App, invitationId: string): Promise<string> {
  const proof = randomBase62(40);
  await app.db
    .updateTable("invitations")
    .set({ proof_hash: hashProof(proof), proof_sent_at: app.clock.now() })
    .where("id", "=", invitationId)
    .execute();
  return proof;
}

/** The invitation link with its proof: the page that makes the account. */
export const provenUrl = (url: string, proof: string) => `${url}/p/${proof}`;

export function proofValid(stored: string | null, proof: unknown): boolean {
  return (
    stored !== null &&
    typeof proof === "string" &&
    proof.length > 0 &&
    proof.length <= 200 &&
    safeEqual(hashProof(proof), stored)
  );
}
