// In-process wake-ups. On SQLite (one process serving and working) this replaces Postgres NOTIFY; on Postgres
// the worker also listens for NOTIFY so another process's change wakes it.
type Listener = () => void;

export class Signals {
  private readonly listeners = new Map<string, Set<Listener>>();
  on(name: string, fn: Listener): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(fn);
    return () => set.delete(fn);
  }
  emit(name: string): void {
    for (const fn of this.listeners.get(name) ?? []) fn();
  }
}
