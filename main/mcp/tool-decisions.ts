import type { OperationName } from '../../shared/api/contract';

/**
 * Whether an operation is an MCP tool (EXT-04): exposed under a tool name (with an optional hint for the
 * agent, added to the contract's summary), or not offered to agents, with the reason.
 */
export type ToolDecision = { tool: string; hint?: string } | { notForAgents: string };

const CREDENTIALS =
  "API keys are credentials: making, listing and revoking them is left to a person in Settings or over REST (a key made here would pass through the agent's transcript)";
const SECRETS = "secret values would pass through the agent's context and transcript; secrets are set by a person in Settings";

/**
 * One decision per contract operation. The mapped type makes an operation added to the table without a
 * decision a compile error (and `tool-decisions.test.ts` checks the table at run time too).
 */
export const MCP_TOOL_DECISIONS: { readonly [K in OperationName]: ToolDecision } = {
  'auth.whoami': { tool: 'auth.whoami', hint: 'Use it to learn which role and sessions your key has before you act.' },
  'nodeTypes.list': { tool: 'nodeTypes.list', hint: 'Use it to learn which node types exist and the config each one takes before writing a workflow.' },
  'workflows.list': { tool: 'workflows.list' },
  'workflows.get': { tool: 'workflows.get' },
  'workflows.save': {
    tool: 'workflows.save',
    hint: 'A definition is {workflowId, description?, nodes: [{nodeId, type, config?}], edges: [{source, target, sourcePort?}]}; a refused graph comes back as VALIDATION_FAILED with one issue per problem.',
  },
  'workflows.validate': { tool: 'workflows.validate' },
  'workflows.versions': { tool: 'workflows.versions' },
  'workflows.getVersion': { tool: 'workflows.getVersion' },
  'workflows.restore': { tool: 'workflows.restore' },
  'workflows.diff': { tool: 'workflows.diff' },
  'breakpoints.get': {
    notForAgents: "the studio debugger's own breakpoints of a workflow (kept outside the definition); an agent steers runs with control.send",
  },
  'breakpoints.set': { notForAgents: "rewrites the studio user's breakpoint list of a workflow; an agent steers runs with control.send" },
  'workflows.delete': { notForAgents: 'irreversible: deletes the workflow with its whole version history; left to a person in the studio or over REST' },
  'runs.start': { tool: 'runs.start', hint: 'Answers at once with the executionId; then call runs.wait, or subscribe to yukta://runs/<executionId>.' },
  'runs.get': { tool: 'runs.get' },
  'runs.wait': {
    tool: 'runs.wait',
    hint: 'timeoutSeconds is at most 300 (default 30); call it again while timedOut is true. Many MCP clients end a request after 60 s.',
  },
  'runs.list': { tool: 'runs.list' },
  'runs.recorded': { tool: 'runs.recorded', hint: 'Metadata shows how a message was tagged, e.g. signal.decision after a WAIT_FOR_SIGNAL node.' },
  'runs.recordedSummary': { tool: 'runs.recordedSummary' },
  'runs.resume': { tool: 'runs.resume' },
  'runs.setPriority': { tool: 'runs.setPriority' },
  'scheduler.get': { tool: 'scheduler.get' },
  'metrics.get': { tool: 'metrics.get' },
  'ha.status': {
    notForAgents:
      "which host of an active/standby pair leads is the operator's concern; an agent's start on a standby is refused with not_leader naming the leader",
  },
  'triggers.list': { tool: 'triggers.list' },
  'workers.list': { tool: 'workers.list' },
  'workers.attempts': { tool: 'workers.attempts' },
  'scheduler.setLimits': { tool: 'scheduler.setLimits' },
  'control.send': { tool: 'control.send' },
  'control.state': { tool: 'control.state' },
  'control.audit': { tool: 'control.audit' },
  'approvals.list': { tool: 'approvals.list', hint: 'Answer one with signals.send (its executionId and nodeId, decision APPROVE or REJECT).' },
  'signals.send': { tool: 'signals.send' },
  'supervisors.list': { tool: 'supervisors.list' },
  'supervisors.getRules': { tool: 'supervisors.getRules' },
  'supervisors.setRules': {
    notForAgents: "installs standing rules that send commands to every future run of a session in the supervisor's name; configured by a person",
  },
  'plugins.control': { tool: 'plugins.control' },
  'sessions.list': { tool: 'sessions.list' },
  'sessions.create': { tool: 'sessions.create' },
  'sessions.rename': { notForAgents: 'changes the name every client, key scope and integration uses for the session; left to a person' },
  'sessions.delete': { notForAgents: 'irreversible: deletes a session with all its workflows; left to a person' },
  'sessions.applyConfig': { notForAgents: "replaces a whole session's workflows at once: a deployment step (CI over REST), not an agent's edit" },
  'settings.get': { tool: 'settings.get', hint: 'Each setting with its value, default and source; secrets are masked.' },
  'settings.set': {
    notForAgents:
      "changes the host's configuration, API keys and execution safety switches (yukta.process.enabled) included; left to a person in Settings or over REST (limits: scheduler.setLimits)",
  },
  'apiKeys.list': { notForAgents: CREDENTIALS },
  'apiKeys.create': { notForAgents: CREDENTIALS },
  'apiKeys.revoke': { notForAgents: CREDENTIALS },
  'secrets.list': { notForAgents: SECRETS },
  'secrets.set': { notForAgents: SECRETS },
  'secrets.delete': { notForAgents: SECRETS },
};
