import type { Message } from './message';

/** Returned by `Valve.admit` when the node is skipped: the message passes through without the plugin. */
export const SKIP: unique symbol = Symbol('skip');

/**
 * A breakpoint condition (CTL-02): holds the node before an element whose `payload`,
 * `payload.some.path` or `metadata.key` equals `equals` (compared as text; objects as JSON).
 */
export interface BreakpointCondition {
  path: string;
  equals: string;
}

/** What the debugger sees of a valve. */
export interface ValveState {
  paused: boolean;
  skipped: boolean;
  /** Messages still allowed through in step mode, or null when not stepping. */
  stepRemaining: number | null;
  breakpoint: BreakpointCondition | null;
  /** The message held at the valve, if any. */
  held: Message | null;
}

/**
 * The explicit hook in front of a node's plugin call (ENG-02): pause, step n, breakpoints and skip.
 * The control plane drives it; the node wrapper asks it for each message. When nothing is engaged,
 * `admit` answers synchronously so the hot path pays nothing.
 */
export class Valve {
  private paused = false;
  private skipped = false;
  private stepRemaining: number | null = null;
  private breakpoint: BreakpointCondition | null = null;
  private held: Message | null = null;
  private replacement: Message | null = null;
  private released: Message | null = null;
  private wake: (() => void) | null = null;

  /** Called whenever the valve opens or closes, so the node can freeze or thaw its clocks. */
  constructor(private readonly onChange: (state: ValveState) => void = () => {}) {}

  get engaged(): boolean {
    return this.paused || this.skipped || this.stepRemaining !== null || this.breakpoint !== null;
  }

  get isHolding(): boolean {
    return this.held !== null || this.paused;
  }

  state(): ValveState {
    return { paused: this.paused, skipped: this.skipped, stepRemaining: this.stepRemaining, breakpoint: this.breakpoint, held: this.held };
  }

  /** Decides what happens to the next message: it passes (maybe replaced), is skipped, or waits here. */
  admit(message: Message): Message | typeof SKIP | Promise<Message | typeof SKIP> {
    if (!this.engaged) return message;
    return this.admitSlow(message);
  }

  /** Waits while paused; used by triggers before producing their next output. */
  async waitWhilePaused(): Promise<void> {
    while (this.paused) await new Promise<void>((resolve) => (this.wake = resolve));
  }

  pause(): void {
    this.paused = true;
    this.changed();
  }

  resume(): void {
    this.paused = false;
    this.stepRemaining = null;
    this.release();
  }

  /** Lets exactly `n` messages through, then pauses. */
  step(n: number): void {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`step needs a positive whole number, got ${n}`);
    this.paused = false;
    this.stepRemaining = n;
    this.release();
  }

  setBreakpoint(condition: BreakpointCondition | null): void {
    this.breakpoint = condition;
    this.changed();
  }

  setSkipped(skipped: boolean): void {
    this.skipped = skipped;
    this.changed();
  }

  /** Replaces the payload of the held message before it is released (beyond the reference, CTL-02). */
  replaceHeldPayload(payload: unknown): boolean {
    if (!this.held) return false;
    this.replacement = { ...this.held, payload };
    this.held = this.replacement;
    this.changed();
    return true;
  }

  private async admitSlow(message: Message): Promise<Message | typeof SKIP> {
    let current = message;
    for (;;) {
      if (this.breakpoint && this.released !== message && matches(this.breakpoint, current)) this.paused = true;
      if (!this.paused) break;
      this.held = current;
      this.changed();
      await new Promise<void>((resolve) => (this.wake = resolve));
      current = this.replacement ?? current;
      // A message let go by resume or step is not caught again by the breakpoint it stopped at.
      this.released = message;
    }
    this.held = null;
    this.replacement = null;
    if (this.stepRemaining !== null) {
      this.stepRemaining--;
      if (this.stepRemaining <= 0) {
        this.stepRemaining = null;
        this.paused = true;
      }
    }
    this.changed();
    return this.skipped ? SKIP : current;
  }

  private release(): void {
    const wake = this.wake;
    this.wake = null;
    this.changed();
    wake?.();
  }

  private changed(): void {
    this.onChange(this.state());
  }
}

/** Reads `payload`, `payload.a.b` or `metadata.key` from a message and compares it as text. */
export function matches(condition: BreakpointCondition, message: Message): boolean {
  const parts = condition.path.split('.');
  let value: unknown;
  if (parts[0] === 'payload') value = message.payload;
  else if (parts[0] === 'metadata') value = message.metadata;
  else return false;
  for (const key of parts.slice(1)) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  if (parts[0] === 'metadata' && parts.length === 1) return false;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === condition.equals;
}
