// The test double of the engine seam: no sockets, no processes. It answers every load with
// the response times it was given (µs), spread evenly over the duration, so unit tests can
// check what perfgate makes of an engine's sample. Not selectable in a suite config.
import { createHistogram, encodeHistogram } from '../latency-histogram.js';

export function doubleEngine({ latenciesMicros = [1000], errorCodes = {}, cpuSeconds = 0.1, launched = [] } = {}) {
  return {
    name: 'double',
    unavailable: () => null,
    async launch(launchOptions) {
      const options = { ...launchOptions, port: await launchOptions.port };
      launched.push(options);
      return {
        async go(duration = options.duration) {
          const histogram = createHistogram();
          for (const value of latenciesMicros) histogram.recordValue(value);
          const seconds = Math.max(1, Math.round(duration));
          const perSecond = Array.from(
            { length: seconds },
            (_, index) =>
              Math.floor(latenciesMicros.length / seconds) + (index < latenciesMicros.length % seconds ? 1 : 0),
          );
          const errors = Object.values(errorCodes).reduce((sum, count) => sum + count, 0);
          return {
            durationSeconds: duration,
            requests: { total: latenciesMicros.length, perSecond },
            responses: { '2xx': latenciesMicros.length, non2xx: 0 },
            bytes: 100 * latenciesMicros.length,
            errors,
            timeouts: errorCodes.TIMEOUT ?? 0,
            errorCodes,
            latencyHistogram: encodeHistogram(histogram),
            client: { cpuSeconds },
          };
        },
        stop: async () => {},
      };
    },
  };
}
