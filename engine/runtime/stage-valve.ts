import type { NodeReport } from './node-report';
import type { StageClocks } from './stage-clocks';
import { Valve, type ValveState } from './valve';

/**
 * The valve step of a node (ENG-02, CTL-02): its Valve, made on first use (most runs never touch one);
 * while it holds a message or is paused the node's clocks are frozen, and a message newly held or let go
 * is reported (the debugger's cue).
 */
export class StageValve {
  private valveRef: Valve | null = null;
  /** The id of the message held at the valve as last reported. */
  private heldId: string | null = null;

  constructor(
    private readonly clocks: StageClocks,
    private readonly report: NodeReport,
  ) {}

  get valve(): Valve {
    return (this.valveRef ??= new Valve((state) => this.changed(state)));
  }

  /** True once the valve exists (a command, the debugger or a start's debug settings reached the node). */
  get made(): boolean {
    return this.valveRef !== null;
  }

  /** True when a message must ask the valve before the plugin (cheap: most nodes have none). */
  get engaged(): boolean {
    return this.valveRef !== null && this.valveRef.engaged;
  }

  /** Lets go of whatever the valve holds (the node is ending). */
  release(): void {
    this.valveRef?.resume();
  }

  reset(): void {
    this.valveRef = null;
    this.heldId = null;
  }

  private changed(state: ValveState): void {
    if (state.paused || state.held) this.clocks.freeze();
    else this.clocks.thaw();
    const held = state.held?.id ?? null;
    if (held === this.heldId) return;
    this.heldId = held;
    this.report.held(held);
  }
}
