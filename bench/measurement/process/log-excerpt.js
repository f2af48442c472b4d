// Pure: the lines of a server's log that say why it did not start. A crash ends with the tail of
// a stack trace or a runtime banner (`}`, `Node.js v22.11.0`), so the last line rarely says
// anything: the first lines that look like an error do (`Error: Cannot find module ...`).

// An error's headline as runtimes print it: "TypeError: ...", "Error [ERR_X]: ...",
// "Uncaught ...", Python's "ModuleNotFoundError: ...", Java's "Exception in thread ...", and
// the "error ..." lines of yarn and other tools.
const HEADLINE =
  /^(?:Uncaught\b|error\b|ERROR\b|(?:\w+\.)*\w*(?:Error|Exception)\b(?: \[[\w-]+\])?:|Exception in thread\b|panic:|fatal:|FATAL\b)/;
// Otherwise any line that mentions a failure, other than a stack frame or a source excerpt.
const MENTION =
  /\b(?:\w*Error|ERR_[A-Z_]+|E(?:ADDRINUSE|ACCES|NOENT|ADDRNOTAVAIL|CONNREFUSED)|[Cc]annot|[Ff]ailed|[Ff]atal|[Ee]xception)\b/;
const NOISE = /^(?:at\s|\^+$|throw\b|\{|\}|code:|Node\.js v\d)/;

/**
 * @param {string} text  a log
 * @returns {string} up to `count` lines joined by " / ", or '' for an empty log
 */
export function logExcerpt(text, count = 2) {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const headlines = lines.filter((line) => HEADLINE.test(line));
  const mentions = lines.filter((line) => !NOISE.test(line) && MENTION.test(line));
  const chosen = headlines.length ? headlines : mentions.length ? mentions : lines.slice(-1);
  return [...new Set(chosen)].slice(0, count).join(' / ');
}
