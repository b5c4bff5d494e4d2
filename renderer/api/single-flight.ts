/**
 * Wraps a read so that calls arriving while it runs cause one more read after it, not one each: a burst of
 * events becomes at most two reads, and the last one sees the latest state.
 */
export function singleFlight(read: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> | null = null;
  let again = false;
  const loop = async (): Promise<void> => {
    do {
      again = false;
      await read();
    } while (again);
  };
  return () => {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = loop().finally(() => (inFlight = null));
    return inFlight;
  };
}
