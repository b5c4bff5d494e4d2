/**
 * The known name closest to a misspelt one, for "did you mean …?" hints: the smallest edit distance
 * (insertions, deletions, substitutions, case ignored), if it is small for the name's length; null otherwise.
 */
export function nearestName(name: string, known: Iterable<string>): string | null {
  const wanted = name.toLowerCase();
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Two edits covers `sessionId`/`session` and most typos; longer names may be a third of their length off.
  return best !== null && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : null;
}

/** Levenshtein distance with one row of memory. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}
