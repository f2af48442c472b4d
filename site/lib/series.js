// One bench of one suite over time: its samples in axis order (the commit's slot, then the
// run's date, so the re-runs of a commit sit together). The trend lines and the change-point
// detection both read series in this order, so a change point's index is a point's index.
const axisOrder = (a, b) => a.slot - b.slot || a.date - b.date;

export function seriesByKey(samples) {
  const series = new Map();
  for (const sample of samples) {
    if (!series.has(sample.key)) series.set(sample.key, []);
    series.get(sample.key).push(sample);
  }
  for (const ofKey of series.values()) ofKey.sort(axisOrder);
  return series;
}

// The samples of one commit, its latest run of each bench when it was measured again.
export function latestAt(samples, commit) {
  const latest = new Map();
  for (const sample of samples) {
    if (sample.commit !== commit) continue;
    const seen = latest.get(sample.key);
    if (!seen || sample.date >= seen.date) latest.set(sample.key, sample);
  }
  return [...latest.values()];
}
