import type { ControlCommand } from '../../shared/api/control.schema';

/** What a reviewer sees (CTL-06): the command, the run it addresses and who sends it. */
export interface ControlRequest {
  readonly executionId: string;
  readonly command: ControlCommand;
  /** `ui:local`, `http:local`, `cli`, `key:<name>`, `supervisor:<id>`. */
  readonly actor: string;
}

export type ReviewVerdict = { allow: true } | { allow: false; reason: string };

/**
 * Reviews every run command before it is applied, limit and priority changes included (CTL-06). The
 * first refusal in order wins; a reviewer that throws (or rejects) refuses.
 */
export interface ControlReviewer {
  /** Named in refusals and in `supervisors.list`-style reports. */
  readonly id: string;
  review(request: ControlRequest): ReviewVerdict | Promise<ReviewVerdict>;
}

export const allow = (): ReviewVerdict => ({ allow: true });
export const refuse = (reason: string): ReviewVerdict => ({ allow: false, reason });

/** A refusal: its reason (naming the reviewer) and the reviewer's id. */
export interface Refusal {
  reason: string;
  by: string;
}

/** Runs the reviewers in order; returns the first refusal, or null when all allow. */
export async function reviewInOrder(reviewers: readonly ControlReviewer[], request: ControlRequest): Promise<Refusal | null> {
  for (const reviewer of reviewers) {
    let verdict: ReviewVerdict;
    try {
      verdict = await reviewer.review(request);
    } catch (error) {
      return { reason: `reviewer ${reviewer.id} failed: ${error instanceof Error ? error.message : String(error)}`, by: reviewer.id };
    }
    if (!verdict || verdict.allow !== true) {
      const reason = verdict && verdict.allow === false && verdict.reason ? verdict.reason : 'refused';
      return { reason: `${reason} (reviewer ${reviewer.id})`, by: reviewer.id };
    }
  }
  return null;
}
