// A guarded exchange's one time budget, across redirects and the body: whatever is in flight when it runs out is
// destroyed with a timeout error.
import { OutboundError } from "./errors.ts";

/** The total time budget; whatever is in flight when it runs out is destroyed with a timeout error. */
export class Deadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expired = false;
  private why: string | undefined;
  private onExpire: ((err: OutboundError) => void) | undefined;
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.onExpire?.(new OutboundError("timeout", `no complete response within ${this.timeoutMs} ms`));
    }, timeoutMs);
  }

  /** Registers what to abort; if the budget is already spent, aborts at once. */
  watch(abort: (err: OutboundError) => void): void {
    this.onExpire = abort;
    if (this.expired)
      abort(new OutboundError("timeout", this.why ?? `no complete response within ${this.timeoutMs} ms`));
  }

  /** Spends the budget now (the caller gave up): whatever is in flight is destroyed. */
  expireNow(why: string): void {
    clearTimeout(this.timer);
    this.expired = true;
    this.why = why;
    this.onExpire?.(new OutboundError("timeout", why));
  }

  /** True when the caller gave up (expireNow), rather than the time running out. */
  get cancelled(): boolean {
    return this.why !== undefined;
  }

  clear(): void {
    clearTimeout(this.timer);
    this.onExpire = undefined;
  }
}
