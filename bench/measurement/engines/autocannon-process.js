// One autocannon load-generator process (started by ./autocannon.js): loads when told to, records every response time into perfgate's µs histogram, and sends back the
// engine-neutral part sample with its own CPU time. One process per engine instance keeps
// the two sides of a duet apart, and lets a tier spread over several open-file limits.
import autocannon from 'autocannon';
import { createHistogram, encodeHistogram, msToMicros } from '../latency-histogram.js';

// autocannon ends a load at its first sample tick after the duration (every `sampleInt` ms, 1 s
// by default), so a 0.2 s warm-up or a 0.5 s round would load for a whole second: sampled every
// SAMPLE_MS it ends within that of its duration. Its tick's counter is then a sample's, not a
// second's, so the responses of each whole second are counted here.
const SAMPLE_MS = 50;
// The last second counts when it ran this long (the load's end and the second's tick may race).
const WHOLE_SECOND_MS = 950;

// stopAfter: a request count the load stops at too (0: none); autocannon's own `requests` option
// is something else (the requests to send).
function load(options, stopAfter = 0) {
  const histogram = createHistogram();
  const perSecond = [];
  const errorCodes = {};
  let inSecond = 0;
  let secondStartedAt = performance.now();
  const secondEnded = () => {
    perSecond.push(inSecond);
    inSecond = 0;
    secondStartedAt = performance.now();
  };
  const seconds = setInterval(secondEnded, 1000);
  const instance = autocannon({ ...options, url: options.url, sampleInt: SAMPLE_MS });
  let answered = 0;
  instance.on('response', (client, statusCode, bytes, responseTime) => {
    inSecond += 1;
    histogram.recordValue(msToMicros(responseTime));
    // A load bounded by a request count too ends at whichever comes first.
    answered += 1;
    if (answered === stopAfter) instance.stop();
  });
  instance.on('reqError', (error) => {
    const code = error.code ?? (error.message === 'request timed out' ? 'TIMEOUT' : 'OTHER');
    errorCodes[code] = (errorCodes[code] ?? 0) + 1;
  });
  const cpuBefore = process.cpuUsage();
  return instance.then((result) => {
    const cpu = process.cpuUsage(cpuBefore);
    clearInterval(seconds);
    if (performance.now() - secondStartedAt >= WHOLE_SECOND_MS) secondEnded();
    return {
      durationSeconds: result.duration,
      requests: { total: result.requests.total, perSecond },
      responses: { '2xx': result['2xx'], non2xx: result.non2xx },
      bytes: result.throughput.total,
      errors: result.errors,
      timeouts: result.timeouts,
      errorCodes,
      latencyHistogram: encodeHistogram(histogram),
      client: { cpuSeconds: (cpu.user + cpu.system) / 1e6 },
    };
  });
}

// { options } once, then { duration, requests } per load (a warm-up, then the measured one;
// requests: a count to stop at as well, 0 for none); the parent
// ends the process when it is done with it.
let options;
process.on('message', async (message) => {
  if (message.options) {
    options = message.options;
    process.send({ ready: true });
    return;
  }
  try {
    process.send({ sample: await load({ ...options, duration: message.duration }, message.requests) });
  } catch (error) {
    process.send({ error: error.message });
  }
});
