import { renderTemplate } from '../plugins/expressions/template';
import { BadInputError } from './errors';
import type { Message } from './message';

/** Renders a templated `timeoutSeconds` against the first message (ENG-05); anything but a positive number is bad input. */
export function retimed(nodeId: string, template: string, first: Message): number {
  const seconds = renderTemplate(template, { payload: first.payload, metadata: first.metadata, context: {} });
  const value = typeof seconds === 'number' ? seconds : Number(seconds);
  if (!Number.isFinite(value) || value <= 0)
    throw new BadInputError(`node "${nodeId}": timeoutSeconds ${template} gave ${JSON.stringify(seconds)}, not a positive number of seconds`);
  return value * 1000;
}
