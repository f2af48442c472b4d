// How numbers read on the page: few digits, units kept, changes signed.
export function formatNumber(value) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}

export function formatValue(value, unit) {
  if (!unit) return formatNumber(value);
  return unit === '%' ? `${formatNumber(value)} %` : `${formatNumber(value)} ${unit}`;
}

// +12.5 % / −8 %, from a relative change (0.125).
export function formatChange(change) {
  if (change === null || !Number.isFinite(change)) return '';
  const percent = formatNumber(Math.abs(100 * change));
  return `${change < 0 ? '−' : '+'}${percent} %`;
}

export const formatShare = (ratio) => `${Math.round(100 * ratio)} %`;

// "2026-11-05 10:00" (UTC) from an ISO text or epoch milliseconds; '' when it is no date.
export function formatDate(timestamp) {
  const date = new Date(timestamp ?? NaN);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 16).replace('T', ' ');
}
