// Medians, percentiles and paired ratios.
export const median = (xs) => quantile(xs, 0.5);

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo] + (s[Math.ceil(at)] - s[lo]) * (at - lo);
}

/** The median of run-by-run ratios: each run of `xs` against the run of `floor` in the same round. */
export const pairedRatio = (xs, floor) => median(xs.map((x, i) => x / floor[i]));
