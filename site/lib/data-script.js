// Reads the text of a data.js. The action writes `window.BENCHMARK_DATA = <JSON>`, which is
// parsed as JSON (fast, and nothing in it runs); anything else is run as the script it is,
// with a `window` of its own, as the action's page would run it.
const PREFIX = /^\s*window\.BENCHMARK_DATA\s*=\s*/;

export function readDataScript(source) {
  const match = PREFIX.exec(source);
  if (match) {
    try {
      return JSON.parse(source.slice(match[0].length).replace(/;\s*$/, ''));
    } catch {
      // Not plain JSON after all (comments, trailing commas, a cut file): run it to get the real error.
    }
  }
  const window = {};
  // eslint-disable-next-line no-new-func -- the file is a script by definition of the format
  new Function('window', source)(window);
  return window.BENCHMARK_DATA;
}
