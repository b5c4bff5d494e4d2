/** Workflow definitions shared by the transport tests (not a test file itself). */

/** API_TRIGGER → TRANSFORM → CONSOLE_TERMINAL: greets `payload.name`. */
export function helloWorkflow(workflowId = 'hello'): Record<string, unknown> {
  return {
    workflowId,
    description: 'Greets whoever is named in the payload',
    nodes: [
      { nodeId: 'start', type: 'API_TRIGGER' },
      { nodeId: 'greet', type: 'TRANSFORM', config: { set: { greeting: 'Hello ${payload.name}' } } },
      { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 'start', target: 'greet' },
      { source: 'greet', target: 'out' },
    ],
  };
}

/** Two transforms feeding each other: refused with DEF-02/cycle. */
export function cyclicWorkflow(): Record<string, unknown> {
  return {
    workflowId: 'loop',
    nodes: [
      { nodeId: 'start', type: 'API_TRIGGER' },
      { nodeId: 'a', type: 'TRANSFORM' },
      { nodeId: 'b', type: 'TRANSFORM' },
    ],
    edges: [
      { source: 'start', target: 'a' },
      { source: 'a', target: 'b' },
      { source: 'b', target: 'a' },
    ],
  };
}
