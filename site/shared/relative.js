// The relative trend's lines (`perfgate trend`, bench/comparison/trend/): per benchmark and judged metric,
// "<benchmark id> - <metric> vs baseline", unit %, the value the commit as a percentage of the
// pinned baseline, measured in the same duet, and `range` its 95 % interval:
//   { name: "express json c=100 - CPU µs/request vs baseline", value: 98.4, unit: "%",
//     range: "95% CI 97.81 to 99.20", extra: "baseline: v1.1.0 (…)\nrelative to: v1.0.0 (…)\n…" }
// Written by bench/comparison/trend/ratios.js and read by the trend site (the band); plain, browser-importable.
const SUFFIX = ' vs baseline';
const RANGE = /^95% CI (\d+(?:\.\d+)?) to (\d+(?:\.\d+)?)$/;

export const RELATIVE_UNIT = '%';
export const relativeMetricName = (metric) => `${metric}${SUFFIX}`;

// The measured metric of a relative line's metric ("CPU µs/request vs baseline" -> "CPU µs/request"), else null.
export const baseMetricOf = (metric) => (metric?.endsWith(SUFFIX) ? metric.slice(0, -SUFFIX.length) : null);

// A ratio's interval as `range` text, in percent with two decimals.
const percent = (ratio) => (Math.round(ratio * 10000) / 100).toFixed(2);
export const rangeText = ([low, high]) => `95% CI ${percent(low)} to ${percent(high)}`;

// The interval of a relative bench's range, in percent; null for any other text.
export function parseRange(text) {
  const match = RANGE.exec(text ?? '');
  return match ? [Number(match[1]), Number(match[2])] : null;
}
