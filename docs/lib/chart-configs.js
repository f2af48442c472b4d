// Chart.js configurations for the three views, built from shaped data. Pure: the page
// passes in the theme colours and what a click on a point should do.
import { formatChange, formatValue } from './format.js';
import { IMPROVEMENT_COLOUR, REGRESSION_COLOUR } from './palette.js';

// Above this many commits, plain points are hidden (only marks show) to keep lines legible.
const DENSE_POINTS = 120;

function baseOptions(theme) {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    color: theme.text,
    interaction: { mode: 'nearest', intersect: false, axis: 'x' },
    plugins: { legend: { position: 'bottom', labels: { color: theme.text, boxWidth: 12 } } },
  };
}

const axis = (theme, title, extra = {}) => ({
  ticks: { color: theme.muted },
  grid: { color: theme.grid },
  title: { display: Boolean(title), text: title, color: theme.muted },
  ...extra,
});

// A point's look says why it is marked: ◆ compare verdict, ▲ over the alert threshold.
export function markOf(point) {
  if (point.verdict === 'regression') return { style: 'rectRot', colour: REGRESSION_COLOUR, radius: 7 };
  if (point.verdict === 'improvement') return { style: 'rectRot', colour: IMPROVEMENT_COLOUR, radius: 7 };
  if (point.regression) return { style: 'triangle', colour: REGRESSION_COLOUR, radius: 7 };
  return null;
}

// A gap (the bench was missing from commits its suite measured) becomes a null that breaks the line.
function lineData(points) {
  return points.flatMap((point, index) => {
    const at = { x: point.commit, y: point.value, point };
    return point.gapBefore ? [{ x: (points[index - 1].commit + point.commit) / 2, y: null }, at] : [at];
  });
}

// Marked points are a dataset of their own, drawn over the line: the lines keep plain,
// shared point options, which is what keeps thousands of commits fast to draw.
function marksDataset(series, colour) {
  const marked = series.points.filter(markOf);
  if (marked.length === 0) return [];
  const marks = marked.map(markOf);
  return [{
    label: `${series.label} marks`,
    marksOf: series.label,
    data: marked.map((point) => ({ x: point.commit, y: point.value, point })),
    showLine: false,
    borderColor: colour,
    pointStyle: marks.map((mark) => mark.style),
    pointRadius: marks.map((mark) => mark.radius),
    pointHoverRadius: marks.map((mark) => mark.radius + 2),
    pointBackgroundColor: marks.map((mark) => mark.colour),
    pointBorderColor: marks.map((mark) => mark.colour),
  }];
}

export function trendChartConfig(group, { commits, colours, theme, onPointClick }) {
  const dense = commits.length > DENSE_POINTS;
  const datasets = group.series.flatMap((series) => {
    const colour = colours.get(series.label);
    const line = {
      label: series.label,
      data: lineData(series.points),
      borderColor: colour,
      backgroundColor: colour,
      borderWidth: dense ? 1.5 : 2,
      spanGaps: false,
      pointRadius: dense ? 0 : 3,
      pointHoverRadius: 5,
    };
    return [line, ...marksDataset(series, colour)];
  });
  const options = baseOptions(theme);
  options.parsing = false; // the data is already { x, y }, sorted by x
  options.normalized = true;
  options.plugins.legend.labels.filter = (item, data) => !data.datasets[item.datasetIndex].marksOf;
  options.scales = {
    x: axis(theme, 'commit', {
      type: 'linear',
      // Half a commit of room at both ends so the first and last markers are not cut.
      min: -0.5,
      max: commits.length - 0.5,
      ticks: { color: theme.muted, precision: 0, maxRotation: 0, autoSkipPadding: 12, callback: (value) => (Number.isInteger(value) ? commits[value]?.short ?? '' : '') },
    }),
    y: axis(theme, group.unit, { grace: '5%' }),
  };
  options.plugins.tooltip = {
    callbacks: {
      title: (items) => {
        const commit = commits[items[0].raw.x];
        return commit ? `${commit.short} ${commit.message}`.trim() : '';
      },
      label: (item) => `${item.dataset.marksOf ?? item.dataset.label}: ${formatValue(item.raw.y, group.unit)} ${item.raw.point?.range ?? ''}`.trim(),
      afterLabel: (item) => {
        const { point } = item.raw;
        if (!point) return [];
        return [
          point.change !== null ? `${formatChange(point.change)} vs previous` : '',
          point.regression ? '▲ worse than the alert threshold' : '',
          point.verdict ? `compare verdict: ${point.verdict}` : '',
        ].filter(Boolean);
      },
      footer: () => 'click (on a phone: tap again) to open the commit',
    },
  };
  // On a touch screen the first tap shows the tooltip and a second tap on the same commit opens it.
  let tapped = null;
  options.onClick = (event, elements, chart) => {
    const raw = elements[0] && chart.data.datasets[elements[0].datasetIndex].data[elements[0].index];
    if (!raw?.point) return;
    const firstTap = event.native?.pointerType === 'touch' && tapped !== raw.x;
    tapped = raw.x;
    if (!firstTap) onPointClick(raw.x);
  };
  options.onHover = (event, elements) => {
    event.native.target.style.cursor = elements.length ? 'pointer' : 'default';
  };
  return { type: 'line', data: { datasets }, options };
}

// req/s (solid, left axis) and errors + timeouts % (dashed, right axis) per variant; the knee is a star.
export function tierChartConfig(curve, { colours, theme }) {
  const labels = curve.tiers.map((tier) => `c=${tier}`);
  const at = (variant, pick) => curve.tiers.map((tier) => {
    const point = variant.points.find((candidate) => candidate.tier === tier);
    return point ? pick(point) : null;
  });
  const datasets = curve.variants.flatMap((variant) => {
    const colour = colours.get(variant.variant);
    const isKnee = curve.tiers.map((tier) => variant.knee?.tier === tier);
    return [
      {
        label: `${variant.variant} req/s`,
        data: at(variant, (point) => point.reqPerSec),
        yAxisID: 'y',
        borderColor: colour,
        backgroundColor: colour,
        pointStyle: isKnee.map((knee) => (knee ? 'star' : 'circle')),
        pointRadius: isKnee.map((knee) => (knee ? 11 : 3)),
        pointBorderWidth: isKnee.map((knee) => (knee ? 3 : 1)),
        knee: variant.knee,
      },
      {
        label: `${variant.variant} errors %`,
        data: at(variant, (point) => point.failurePct),
        yAxisID: 'failures',
        borderColor: colour,
        backgroundColor: colour,
        borderDash: [6, 4],
        borderWidth: 1.5,
        pointRadius: 2,
      },
    ];
  });
  const options = baseOptions(theme);
  options.interaction = { mode: 'index', intersect: false };
  options.scales = {
    x: axis(theme, 'connections'),
    y: axis(theme, 'req/s', { beginAtZero: true, position: 'left' }),
    failures: axis(theme, 'errors + timeouts %', { beginAtZero: true, suggestedMax: 2, position: 'right', grid: { drawOnChartArea: false } }),
  };
  options.plugins.tooltip = {
    callbacks: {
      afterLabel: (item) => {
        const { knee } = item.dataset;
        return knee && `c=${knee.tier}` === item.label ? `★ saturation knee: ${knee.reason}` : '';
      },
    },
  };
  return { type: 'line', data: { labels, datasets }, options };
}

export function barChartConfig(bars, { metric, unit, colours, theme }) {
  const datasets = bars.series.map((series) => ({
    label: series.label,
    data: series.values,
    backgroundColor: colours.get(series.label),
  }));
  const options = baseOptions(theme);
  options.interaction = { mode: 'index', intersect: false };
  options.scales = { x: axis(theme, ''), y: axis(theme, unit && !metric.includes(unit) ? `${metric} (${unit})` : metric, { beginAtZero: true }) };
  options.plugins.tooltip = { callbacks: { label: (item) => `${item.dataset.label}: ${formatValue(item.raw, unit)}` } };
  return { type: 'bar', data: { labels: bars.labels, datasets }, options };
}
