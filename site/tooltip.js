// The trend charts' tooltip: HTML over the page, not drawn in the canvas, so long commit
// messages and extras wrap instead of being cut at the canvas edge.
import { $, el } from './dom.js';
import { pointDetails } from './lib/point-details.js';

export function hideTooltip() {
  $('#tooltip').hidden = true;
}

// context: Chart.js's external tooltip call; unit and commits: what pointDetails needs.
export function showTooltip({ chart, tooltip }, { unit, commits }) {
  const item = tooltip.dataPoints?.[0];
  if (tooltip.opacity === 0 || !item?.raw?.point) return hideTooltip();
  const label = item.dataset.overlayOf ?? item.dataset.label;
  const details = pointDetails(item.raw, { label, unit, commits });
  const box = $('#tooltip');
  box.replaceChildren(
    ...[
      el('strong', {}, details.title),
      el('p', { class: 'message' }, details.message),
      el('p', { class: 'muted' }, details.people),
      el('p', { class: 'value' }, details.value),
      el('p', {}, details.change),
      details.mark ? el('p', { class: 'bad' }, details.mark) : null,
      details.changePoint ? el('p', { class: 'change-point' }, details.changePoint) : null,
      details.extra ? el('pre', {}, details.extra) : null,
      el('p', { class: 'muted' }, details.link),
    ].filter(Boolean),
  );
  box.hidden = false;
  // Beside the point, flipped and clamped so the whole box stays on the screen.
  const canvas = chart.canvas.getBoundingClientRect();
  const x = canvas.left + tooltip.caretX;
  const y = canvas.top + tooltip.caretY;
  const { width, height } = box.getBoundingClientRect();
  const gap = 12;
  const left = x + gap + width <= window.innerWidth ? x + gap : Math.max(4, x - gap - width);
  const top = Math.min(Math.max(4, y - height / 2), Math.max(4, window.innerHeight - height - 4));
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
}
