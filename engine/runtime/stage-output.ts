import { DEFAULT_PORT } from '../../shared/workflow/engine-policy.schema';
import type { PluginResult } from '../plugins/contract';
import type { JsonLimits } from '../../shared/json/json-limits';
import { checkNodeOutput, messageJsonLimits, type MessageLimits } from '../security/message-size';
import type { Channel } from './channel';
import { shouldYield, yieldToEventLoop } from './event-loop-yield';
import type { Message, OutputMessage } from './message';
import type { PreparedNode } from './prepared-workflow';
import type { NodeRecorder } from './run-hooks';
import type { StageClocks } from './stage-clocks';

const NO_HEADERS: Readonly<Record<string, string | number>> = Object.freeze({});
const NO_METADATA = NO_HEADERS as Readonly<Record<string, string>>;

/** What the output side reaches of its node while it runs: one narrow interface. */
export interface OutputStage {
  /** Guards waits on an async iterable's next output, and feeds the idle clock per output. */
  readonly clocks: Pick<StageClocks, 'guard' | 'activity'>;
  stopped(): boolean;
  /** Holds a trigger's next output while its valve is paused (CTL-02); null when nothing holds it. */
  triggerGate(): Promise<void> | null;
}

/**
 * The broadcast step of the node wrapper (ENG-01/02): turns a plugin's result into messages and offers
 * each to every child on its port, in order. A full child makes it wait (back-pressure); otherwise it
 * stays synchronous, and it gives the event loop a turn when it has been busy for a while.
 */
export class StageOutput {
  private nextMessageId = 1;
  private firstMessageId: string | null = null;
  /** Dropped once it says it keeps nothing more: past a cap, recording costs one null check per message. */
  private recorder: NodeRecorder | null = null;
  private freezeMessages = false;
  /** What every output is held to (SEC-03), made again only when a run brings other limits. */
  private limits: JsonLimits | null = null;
  private limitsOf: MessageLimits | null = null;

  constructor(
    private readonly node: PreparedNode,
    /** The children's inputs per output port (`ports[i]` → `targets[i]`); a node has few ports. */
    private readonly ports: readonly string[],
    private readonly targets: ReadonlyArray<ReadonlyArray<Channel<Message>>>,
    /** The node's counts: every output is counted as emitted. */
    private readonly counts: { emitted: number },
    private readonly owner: OutputStage,
  ) {}

  /** For the node's next run: message ids from 1 again, that run's recorder and message limits. */
  reset(recorder: NodeRecorder | null, freezeMessages: boolean, limits: MessageLimits): void {
    this.nextMessageId = 1;
    this.recorder = recorder;
    this.freezeMessages = freezeMessages;
    if (limits !== this.limitsOf) {
      this.limitsOf = limits;
      this.limits = messageJsonLimits(limits);
    }
  }

  /** Emits a plugin's result: an array (synchronously where possible) or an async iterable. */
  emitAll(result: PluginResult, input: Message | undefined): Promise<void> | undefined {
    if (!result) return undefined;
    if (Array.isArray(result)) {
      for (let i = 0; i < result.length; i++) {
        const pending = this.send(result[i]!, input);
        if (pending !== undefined) return this.sendRest(pending, result, i + 1, input);
        if (shouldYield()) return this.sendRest(yieldToEventLoop(), result, i + 1, input);
      }
      return undefined;
    }
    if (Symbol.asyncIterator in result) return this.stream(result, input);
    return this.pull(result[Symbol.iterator](), input);
  }

  /** Pulls a synchronous iterable while the children have room; waits only when one is full. */
  private pull(iterator: Iterator<OutputMessage>, input: Message | undefined): Promise<void> | undefined {
    for (let next = iterator.next(); !next.done; next = iterator.next()) {
      const pending = this.send(next.value, input);
      if (pending !== undefined) return this.pullRest(pending, iterator, input);
      if (shouldYield()) return this.pullRest(yieldToEventLoop(), iterator, input);
    }
    return undefined;
  }

  private async pullRest(pending: Promise<void>, iterator: Iterator<OutputMessage>, input: Message | undefined): Promise<void> {
    await pending;
    for (let next = iterator.next(); !next.done && !this.owner.stopped(); next = iterator.next()) {
      const more = this.send(next.value, input);
      if (more !== undefined) await more;
      if (shouldYield()) await yieldToEventLoop();
    }
  }

  private async sendRest(pending: Promise<void>, outputs: OutputMessage[], from: number, input: Message | undefined): Promise<void> {
    await pending;
    for (let i = from; i < outputs.length && !this.owner.stopped(); i++) {
      const next = this.send(outputs[i]!, input);
      if (next !== undefined) await next;
      if (shouldYield()) await yieldToEventLoop();
    }
  }

  private async stream(outputs: AsyncIterable<OutputMessage>, input: Message | undefined): Promise<void> {
    const iterator = outputs[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await this.owner.clocks.guard(iterator.next());
        if (next.done || this.owner.stopped()) break;
        this.owner.clocks.activity();
        const pending = this.send(next.value, input);
        if (pending !== undefined) await pending;
        if (shouldYield()) await yieldToEventLoop();
      }
    } finally {
      if (this.owner.stopped()) void iterator.return?.();
    }
  }

  /**
   * Where every output leaves its plugin (SEC-03): one check of its nesting and size, skipped when the
   * plugin passed its input's payload on unchanged (that payload was checked where it came from). Over a
   * limit it throws the typed error, which fails the message like a failed attempt.
   */
  check(out: OutputMessage, input: Message | undefined): void {
    if (input === undefined || out.payload !== input.payload) checkNodeOutput(this.node.nodeId, out.payload, this.limits!);
  }

  /**
   * Sends one output to every child on its port, in order; returns a promise only if a child was full.
   * `checked`: the output was checked already (an attempt's outputs, all of them before any is sent) or
   * the engine made it from a checked message (the error port's `{error, input}`).
   */
  send(out: OutputMessage, input: Message | undefined, checked = false): Promise<void> | undefined {
    if (!checked) this.check(out, input);
    const gate = this.owner.triggerGate();
    if (gate !== null) return gate.then(() => (this.owner.stopped() ? undefined : this.send(out, input, true)));
    this.counts.emitted++;
    const port = out.port ?? DEFAULT_PORT;
    const ports = this.ports;
    const at = ports.length === 1 ? (ports[0] === port ? 0 : -1) : ports.indexOf(port);
    if (at < 0) return undefined;
    const targets = this.targets[at]!;
    const payload = this.freezeMessages ? deepFreeze(out.payload) : out.payload;
    const message: Message = {
      id: this.nextMessageId === 1 ? this.firstId() : `${this.node.nodeId}#${this.nextMessageId++}`,
      payload,
      metadata: out.metadata ?? input?.metadata ?? NO_METADATA,
      headers: NO_HEADERS,
    };
    if (this.recorder !== null && !this.recorder.record(port, payload, message.metadata)) this.recorder = null;
    for (let i = 0; i < targets.length; i++) {
      if (!targets[i]!.offer(message)) return this.sendSlow(message, targets, i);
    }
    return undefined;
  }

  /** The id of a run's first output, the same in every run of the node: made once. */
  private firstId(): string {
    this.nextMessageId = 2;
    return (this.firstMessageId ??= `${this.node.nodeId}#1`);
  }

  private async sendSlow(message: Message, targets: ReadonlyArray<Channel<Message>>, from: number): Promise<void> {
    for (let i = from; i < targets.length; i++) await targets[i]!.send(message);
  }
}

/**
 * Freezes a value and everything inside it, so a plugin that mutates a shared message throws. Iterative:
 * a message nests as deep as its producer made it, and this must not be what overflows the stack.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const item of Object.values(v)) stack.push(item);
  }
  return value;
}
