// Numbers and percentages as perfgate's reports, tables, comments and --help show them, in
// one place so that a setting or a change reads the same wherever it appears. (The trend
// site formats its own: site/lib/format.js runs in the browser.)

// Counts and rates: rounded, with thousands separated ("12,345").
export const integer = (value) => Math.round(value).toLocaleString('en-US');

// A measured value beside others of its kind (compare's base and head means): whole numbers
// from 100 up, two decimals below.
export const measured = (value) => (value >= 100 ? integer(value) : value.toFixed(2));

// Latency keeps µs precision: a fast server's 0.42 ms must not show as 0.
export const milliseconds = (value) => `${+value.toFixed(value < 10 ? 2 : 1)} ms`;

// CPU time per request; n/a where it was not measured.
export const microseconds = (value) => (value === null || value === undefined ? 'n/a' : `${+value.toFixed(1)} µs`);

// A value that is already a percentage (error %, timeout %): always two decimals.
export const percentValue = (value) => `${value.toFixed(2)} %`;

// A fraction (a setting such as a verdict band or the fail threshold) as the percentage a
// user types: at most two decimals, no trailing zeros (0.05 -> 5, 0.025 -> 2.5).
export const percentNumber = (fraction) => +(100 * fraction).toFixed(2);
export const percent = (fraction) => `${percentNumber(fraction)} %`;

// A relative change: signed, one decimal ("+3.2 %", "-0.4 %").
export const signedPercent = (fraction) => `${fraction >= 0 ? '+' : ''}${(100 * fraction).toFixed(1)} %`;

// A 95 % interval of a relative change, or n/a where there is none.
export const intervalText = (ci) => (ci ? `${signedPercent(ci[0])} … ${signedPercent(ci[1])}` : 'n/a');
// An interval's level after it, when it is not the usual one, e.g. " at 90 %".
export const levelText = (level) => `${+(level * 100).toFixed(1)} %`;
export const levelSuffix = (level, usual) => (level && level !== usual ? ` at ${levelText(level)}` : '');

// A size in bytes, in binary units: "2 GiB", "512 MiB".
export const byteSize = (bytes) =>
  bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(1)} GiB` : `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
