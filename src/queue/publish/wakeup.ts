// How the publish worker waits: a sleep that a wake-up ends at once (remembered if it comes while awake), and
// pauses that a stopping worker interrupts.

export class Wakeup {
  private wakeUp: (() => void) | null = null;
  private woken = false;

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Sleeps `ms`, or until woken (at once if a wake-up came since the last sleep). True when the time ran out
   * rather than a wake-up ending it.
   */
  sleep(ms: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      if (this.woken) {
        this.woken = false;
        return resolve(false);
      }
      const done = (timedOut: boolean) => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.woken = false;
        resolve(timedOut);
      };
      const timer = setTimeout(() => done(true), ms);
      this.wakeUp = () => done(false);
    });
  }
}

export class Pauses {
  private readonly waiting = new Set<() => void>();

  /** Waits `ms`, or less when interrupted (then false). */
  pause(ms: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(interrupt);
        resolve(true);
      }, ms);
      const interrupt = () => {
        clearTimeout(timer);
        resolve(false);
      };
      this.waiting.add(interrupt);
    });
  }

  interruptAll(): void {
    for (const interrupt of this.waiting) interrupt();
    this.waiting.clear();
  }
}
