// Progress of a long run: one rewritten status line on a terminal, plain lines in CI
// (where carriage returns only clutter the log).

const formatSeconds = (seconds) => {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

export function createProgress({
  total,
  secondsPerStep,
  stream = process.stderr,
  interactive = stream.isTTY && !process.env.CI,
}) {
  let done = 0;
  const startedAt = Date.now();
  const eta = () => {
    const elapsed = (Date.now() - startedAt) / 1000;
    const perStep = done > 0 ? elapsed / done : secondsPerStep;
    return formatSeconds((total - done) * perStep);
  };
  const clearLine = () => interactive && stream.write('\r\x1b[K');
  return {
    start(label) {
      const line = `[${done + 1}/${total}] ${label} (ETA ${eta()})`;
      if (interactive) stream.write(`\r\x1b[K${line}`);
      else stream.write(`${line}\n`);
    },
    finish(outcome) {
      done++;
      if (outcome) {
        clearLine();
        stream.write(`${outcome}\n`);
      }
    },
    end() {
      clearLine();
    },
  };
}
