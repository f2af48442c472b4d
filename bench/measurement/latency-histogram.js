// perfgate's own latency histogram: HDR (hdr-histogram-js) at microsecond resolution, fed
// with every response time a load engine reports. Runs keep it encoded (compressed base64,
// the HdrHistogram interchange format), so a benchmark's percentiles come from the merged
// histogram of its repetitions and a comparison's from each round's own.
import hdr from 'hdr-histogram-js';

// 1 µs to one hour, 3 significant digits: ±0.1 % of any value.
const SETTINGS = { lowestDiscernibleValue: 1, highestTrackableValue: 3600e6, numberOfSignificantValueDigits: 3 };

export const createHistogram = () => hdr.build(SETTINGS);

// Milliseconds (autocannon reports fractional ms) -> whole µs, at least 1.
export const msToMicros = (ms) => Math.max(1, Math.round(ms * 1000));

export const encodeHistogram = (histogram) => hdr.encodeIntoCompressedBase64(histogram);

// Encoded histograms -> one histogram with all their values.
export function mergeHistograms(encoded) {
  const merged = createHistogram();
  for (const each of encoded) {
    if (each) merged.add(hdr.decodeFromCompressedBase64(each));
  }
  return merged;
}

const ms = (micros) => Math.round(micros) / 1000;

// The fewest requests whose p99.9 is given: ten of them lie beyond it, so one slow request moves
// it by a tenth of the tail, not the whole of it (bench/stats/METHOD.md §7).
export const P999_MIN_SAMPLES = 10_000;

// The latency fields of a run or summary, in ms with µs precision (0.42 ms, not 0); p999 only from
// enough requests.
export function latencySummary(histogram) {
  if (histogram.totalCount === 0) return { avg: 0, p50: 0, p90: 0, p99: 0, max: 0 };
  return {
    avg: ms(histogram.mean),
    p50: ms(histogram.getValueAtPercentile(50)),
    p90: ms(histogram.getValueAtPercentile(90)),
    p99: ms(histogram.getValueAtPercentile(99)),
    ...(histogram.totalCount >= P999_MIN_SAMPLES ? { p999: ms(histogram.getValueAtPercentile(99.9)) } : {}),
    max: ms(histogram.maxValue),
  };
}
