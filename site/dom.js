// The page's DOM helpers: lookups, elements built from text only, the status line.
export const $ = (selector) => document.querySelector(selector);

// Builds an element from text only (never HTML): commit messages and bench names are data.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== ''));
  return node;
}

export function showStatus(message, kind) {
  const status = $('#status');
  status.textContent = message;
  status.className = `status ${kind}`;
  status.hidden = false;
}

export const showProblem = (message) => showStatus(message, 'problem');
