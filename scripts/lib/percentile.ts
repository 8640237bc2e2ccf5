/** Nearest-rank percentile of `values` (sorted here): p95 of 10 values is the largest. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1] ??
    Number.NaN
  );
}
