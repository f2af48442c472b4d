// Text from outside (an artifact, an error quoting a file) made safe to print: one line,
// no control characters, bounded, so that it can never act as a workflow command or a
// terminal escape.
export const printable = (value, max = 200) => String(value).replace(/[\u0000-\u001f\u007f]/g, ' ').slice(0, max);
