/**
 * Orders work per key (CTL-01): tasks with the same key run one after another in arrival order; tasks
 * with different keys run independently. The caller's promise settles when its own task has run, so an
 * answer arrives only once the command is applied. A failing task does not stop the ones behind it.
 */
export class CommandSequencer {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T> | T): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (for tests and gauges). */
  get activeKeys(): number {
    return this.tails.size;
  }
}
