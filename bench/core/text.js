// Text from outside (a config's names, an artifact, an error quoting a file) made safe where
// it is shown: a terminal or log line, a markdown report, a comment on GitHub.

// One line, no control characters, bounded, so that it can never act as a workflow command
// or a terminal escape.
export const printable = (value, max = 200) =>
  String(value)
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .slice(0, max);

// A message of several lines (a reason and its details, such as a wrong answer's diff) on one
// line, so that a table cell or a list item keeps all of it.
export function oneLine(text) {
  const [first = '', ...details] = String(text)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return details.length ? `${first} ${details.join('; ')}` : first;
}

// A markdown table cell or line: every character that could end the cell, start markup, HTML
// or a link becomes an HTML entity, which renders as itself.
export const escapeMarkdown = (text) =>
  String(text).replace(/[|\n\r<>&`*_[\]\\]/g, (char) => `&#${char.charCodeAt(0)};`);

// Untrusted text shown literally: in a code span nothing is markdown, HTML, a mention or a
// link, and with backticks, pipes and line breaks gone it can neither end the span nor split
// a table cell. Letters and digits of any script and quotes (a message's "server's", a
// typographic ’) are kept as written; any other character outside the list becomes `?`.
export function codeSpan(value, max = 120) {
  const clean = [...String(value).replace(/[^\p{L}\p{N}_ .,:;=+\-/()[\]@%~^#'"‘’“”…]/gu, '?')];
  const cut = clean.length > max ? `${clean.slice(0, max - 1).join('')}…` : clean.join('');
  return `\`${cut.trim() || '-'}\``;
}
