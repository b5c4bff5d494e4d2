/**
 * The meters of SPEC OBS-04, each named `yukta.*` as in the Java engine and exported with the Prometheus
 * name prom-client requires (dots become `_`, counters end `_total`, durations are `_seconds`).
 */
export const METER_NAMES = {
  'yukta.executions.completed': 'yukta_executions_completed_total',
  'yukta.execution.duration': 'yukta_execution_duration_seconds',
  'yukta.execution.queue.wait': 'yukta_execution_queue_wait_seconds',
  'yukta.executions.running': 'yukta_executions_running',
  'yukta.executions.queued': 'yukta_executions_queued',
  'yukta.executions.rejected': 'yukta_executions_rejected_total',
  'yukta.node.executions': 'yukta_node_executions_total',
  'yukta.node.duration': 'yukta_node_duration_seconds',
  'yukta.node.retries': 'yukta_node_retries_total',
  'yukta.edge.dropped': 'yukta_edge_dropped_total',
  'yukta.checkpoint.bytes': 'yukta_checkpoint_bytes',
  'yukta.checkpoint.errors': 'yukta_checkpoint_errors_total',
  'yukta.tracker.queue.depth': 'yukta_tracker_queue_depth',
  'yukta.tracker.dropped': 'yukta_tracker_dropped_total',
  'yukta.tracker.log.append.failed': 'yukta_tracker_log_append_failed_total',
} as const;
