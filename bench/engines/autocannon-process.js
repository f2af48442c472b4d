// One autocannon load-generator process (started by ./autocannon.js): loads when told to, records every response time into perfgate's µs histogram, and sends back the
// engine-neutral part sample with its own CPU time. One process per engine instance keeps
// the two sides of a duet apart, and lets a tier spread over several open-file limits.
import autocannon from 'autocannon';
import { createHistogram, encodeHistogram, msToMicros } from '../latency-histogram.js';

function load(options) {
  const histogram = createHistogram();
  const perSecond = [];
  const errorCodes = {};
  const instance = autocannon({ ...options, url: options.url });
  // autocannon ticks once more, with 0, as it stops: keep the measured seconds only.
  instance.on('tick', ({ counter }) => {
    if (perSecond.length < Math.ceil(options.duration)) perSecond.push(counter);
  });
  instance.on('response', (client, statusCode, bytes, responseTime) => histogram.recordValue(msToMicros(responseTime)));
  instance.on('reqError', (error) => {
    const code = error.code ?? (error.message === 'request timed out' ? 'TIMEOUT' : 'OTHER');
    errorCodes[code] = (errorCodes[code] ?? 0) + 1;
  });
  const cpuBefore = process.cpuUsage();
  return instance.then((result) => {
    const cpu = process.cpuUsage(cpuBefore);
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

// { options } once, then { duration } per load (a warm-up, then the measured one); the parent
// ends the process when it is done with it.
let options;
process.on('message', async (message) => {
  if (message.options) {
    options = message.options;
    process.send({ ready: true });
    return;
  }
  try {
    process.send({ sample: await load({ ...options, duration: message.duration }) });
  } catch (error) {
    process.send({ error: error.message });
  }
});
