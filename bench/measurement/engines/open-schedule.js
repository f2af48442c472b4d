// The open model's arithmetic, engine-neutral and pure: a load that offers `rate` requests per
// second on a fixed schedule, request n (from 0) due at start + (n + 1) / rate, whatever the
// server does. Each request's latency is counted from when it was DUE, not from when it was
// sent, so a stall costs every request that should have been sent during it (no coordinated
// omission), and the schedule says how well the client kept it: how many requests were due,
// sent, sent late, never sent.
import { createHistogram, encodeHistogram } from '../latency-histogram.js';

// A request sent later than this after it was due was not sent on time. Its latency still
// counts from when it was due; the tolerance only decides whether the offered rate was held.
export const LAG_TOLERANCE_MS = 10;
// More than this share of due requests late or never sent, and the client, not the server,
// shaped the tail: p99 is judged, and 1 % of requests is the p99.
export const BEHIND_SHARE = 0.01;

/**
 * @param {{rate: number, duration: number, results: {seq: number, sentNs: number, latencyNs: number,
 *   completed: boolean}[]}} load  sentNs: on the client's clock, any origin (only differences count)
 * @returns {{latencyHistogram: string, completedNs: number[], schedule: {rate: number, due: number, sent: number,
 *   late: number, unsent: number, achievedRate: number, maxLagMs: number, lagToleranceMs: number, behind: boolean}}}
 *   completedNs: each completed response's end, from the schedule's start
 */
export function openSchedule({ rate, duration, results }) {
  const interval = 1e9 / rate;
  const dueAt = (seq) => (seq + 1) * interval;
  // The schedule's start: no request leaves before it is due, so the earliest (sent - due offset)
  // is the start, and the requests sent then were on time.
  let start = results.length ? Number.POSITIVE_INFINITY : 0;
  for (const each of results) start = Math.min(start, each.sentNs - dueAt(each.seq));
  const histogram = createHistogram();
  const completedNs = [];
  let late = 0;
  let maxLagNs = 0;
  for (const each of results) {
    const due = start + dueAt(each.seq);
    const lagNs = each.sentNs - due;
    maxLagNs = Math.max(maxLagNs, lagNs);
    if (lagNs > LAG_TOLERANCE_MS * 1e6) late++;
    if (!each.completed) continue;
    const endNs = each.sentNs + each.latencyNs;
    histogram.recordValue(Math.max(1, Math.round((endNs - due) / 1e3)));
    completedNs.push(endNs - start);
  }
  const due = Math.floor(duration * rate);
  const sent = results.length;
  const unsent = Math.max(0, due - sent);
  return {
    latencyHistogram: encodeHistogram(histogram),
    completedNs,
    schedule: {
      rate,
      due,
      sent,
      late,
      unsent,
      achievedRate: Math.round((100 * sent) / duration) / 100,
      maxLagMs: Math.round(maxLagNs / 1e3) / 1e3,
      lagToleranceMs: LAG_TOLERANCE_MS,
      behind: late + unsent > BEHIND_SHARE * Math.max(1, due),
    },
  };
}

// Pure: the schedules of one load's processes -> the load's (each process offered its share of the rate).
export function mergeSchedules(schedules) {
  const sum = (key) => schedules.reduce((total, each) => total + each[key], 0);
  return {
    rate: sum('rate'),
    due: sum('due'),
    sent: sum('sent'),
    late: sum('late'),
    unsent: sum('unsent'),
    achievedRate: Math.round(100 * sum('achievedRate')) / 100,
    maxLagMs: Math.max(...schedules.map((each) => each.maxLagMs)),
    lagToleranceMs: LAG_TOLERANCE_MS,
    behind: schedules.some((each) => each.behind),
  };
}
