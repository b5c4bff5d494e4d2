/** MIME type of a palette drag; the payload is the node type. */
export const NODE_TYPE_MIME = 'application/x-yukta-node-type';

// Some drag sources (or test drivers) lose custom MIME data; the palette also remembers the type here.
let draggedType: string | null = null;

export function startPaletteDrag(dataTransfer: DataTransfer, type: string): void {
  draggedType = type;
  dataTransfer.setData(NODE_TYPE_MIME, type);
  dataTransfer.setData('text/plain', type);
  dataTransfer.effectAllowed = 'copyMove';
}

export function endPaletteDrag(): void {
  draggedType = null;
}

/** The node type being dropped, or null when the drag did not come from the palette. */
export function readDroppedType(dataTransfer: DataTransfer | null): string | null {
  const fromData = dataTransfer?.getData(NODE_TYPE_MIME);
  return fromData || draggedType;
}

export function isPaletteDrag(dataTransfer: DataTransfer | null): boolean {
  return draggedType !== null || Boolean(dataTransfer?.types.includes(NODE_TYPE_MIME));
}
