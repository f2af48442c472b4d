// Chart.js configurations for the three views, built from shaped data. Pure: the page
// passes in the theme colours and what a click on a point should do.
import { formatValue } from './format.js';
import { closedLoad, LOAD_AXES, loadTag, openLoad } from '../shared/load-point.js';
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

// A point over the opt-in neighbour-ratio threshold is a red triangle, as the action would alert.
const MARK = { style: 'triangle', colour: REGRESSION_COLOUR, radius: 7 };

// A gap (the bench was missing from commits its suite measured) becomes a null that breaks the line.
function lineData(points) {
  return points.flatMap((point, index) => {
    const at = { x: point.x, y: point.value, point };
    return point.gapBefore ? [{ x: (points[index - 1].x + point.x) / 2, y: null }, at] : [at];
  });
}

// Marked points are a dataset of their own, drawn over the line: the lines keep plain,
// shared point options, which is what keeps thousands of commits fast to draw.
function marksDataset(series, colour) {
  const marked = series.points.filter((point) => point.regression);
  if (marked.length === 0) return [];
  return [
    {
      label: `${series.label} marks`,
      overlayOf: series.label,
      data: marked.map((point) => ({ x: point.x, y: point.value, point })),
      showLine: false,
      borderColor: colour,
      pointStyle: MARK.style,
      pointRadius: MARK.radius,
      pointHoverRadius: MARK.radius + 2,
      pointBackgroundColor: MARK.colour,
      pointBorderColor: MARK.colour,
    },
  ];
}

// "2026-11-05" (UTC) for the axis: the date of the commit's first run in this suite.
const dayOf = (date) => new Date(date).toISOString().slice(0, 10);

export function trendChartConfig(group, { commits, colours, theme, onPointClick, tooltip }) {
  const dense = group.slots.length > DENSE_POINTS;
  const datasets = group.series.flatMap((series) => {
    const colour = colours.get(series.label);
    const line = {
      label: series.label,
      seriesKey: series.key,
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
  // Thousands of runs on a few hundred pixels: keep each pixel column's lowest and highest
  // point (min-max keeps the outliers that matter here) and draw no more than that.
  if (dense) options.plugins.decimation = { enabled: true, algorithm: 'min-max' };
  options.interaction = { mode: 'nearest', intersect: false, axis: 'xy' };
  options.plugins.legend.labels.filter = (item, data) => !data.datasets[item.datasetIndex].overlayOf;
  options.plugins.stepMeans = { colour: theme.text, lines: [] };
  // One line needs no legend: the caption names it.
  options.plugins.legend.display = group.series.length > 1;
  const commitAt = (slot) => commits[group.slots[slot]];
  options.scales = {
    x: axis(theme, 'commit date', {
      type: 'linear',
      // Half a commit of room at both ends so the first and last markers are not cut.
      min: -0.5,
      max: group.slots.length - 0.5,
      ticks: {
        color: theme.muted,
        precision: 0,
        maxRotation: 0,
        autoSkipPadding: 16,
        callback: (value) => (Number.isInteger(value) && commitAt(value) ? dayOf(commitAt(value).date) : ''),
      },
    }),
    // The action's page starts at zero too: a series that is never negative never gets a negative axis.
    y: axis(theme, group.unit, { beginAtZero: true }),
  };
  // The tooltip is HTML drawn by the page (long messages and extras wrap instead of being cut at the canvas edge).
  options.plugins.tooltip = { enabled: false, external: tooltip };
  // On a touch screen the first tap shows the tooltip and a second tap on the same point opens the commit.
  let tapped = null;
  options.onClick = (event, elements, chart) => {
    const raw = elements[0] && chart.data.datasets[elements[0].datasetIndex].data[elements[0].index];
    const commit = raw?.point?.sample.commit;
    if (commit === undefined) return;
    const firstTap = event.native?.pointerType === 'touch' && tapped !== raw;
    tapped = raw;
    if (!firstTap) onPointClick(commit);
  };
  options.onHover = (event, elements) => {
    event.native.target.style.cursor = elements.length ? 'pointer' : 'default';
  };
  // A relative line: its interval as a band, and the baseline's level (100 %) as a reference;
  // its axis fits the ratios instead of starting at zero, where a 2 % step would be invisible.
  const bands = group.series
    .map((series) => ({ colour: colours.get(series.label), points: series.points.filter((point) => point.band) }))
    .filter((band) => band.points.length > 0);
  options.plugins.intervalBands = { bands, reference: group.relative ? 100 : null, colour: theme.muted };
  if (group.relative) {
    const edges = bands.flatMap((band) => band.points.flatMap((point) => point.band));
    options.scales.y = axis(theme, `${group.unit} of the baseline`, {
      beginAtZero: false,
      suggestedMin: edges.reduce((low, edge) => Math.min(low, edge), 100),
      suggestedMax: edges.reduce((high, edge) => Math.max(high, edge), 100),
    });
  }
  return { type: 'line', data: { datasets }, options, plugins: [INTERVAL_BANDS, STEP_MEANS] };
}

// Runs `draw` with the canvas clipped to the chart's plot area, so that an overlay never paints
// over the axes, and restores the canvas after it.
function insidePlotArea(chart, draw) {
  const { ctx, chartArea, scales } = chart;
  ctx.save();
  ctx.beginPath();
  ctx.rect(chartArea.left, chartArea.top, chartArea.width, chartArea.height);
  ctx.clip();
  draw({ ctx, chartArea, scales });
  ctx.restore();
}

// The intervals of a series as a translucent band under its line (each point's low to high,
// joined point to point), and a dotted line at the reference level; a plugin, not datasets, so
// that neither takes the tooltip from the runs.
const INTERVAL_BANDS = {
  id: 'intervalBands',
  beforeDatasetsDraw(chart, _args, options) {
    insidePlotArea(chart, ({ ctx, chartArea, scales }) => {
      for (const { colour, points } of options.bands ?? []) {
        ctx.beginPath();
        const edge = (point, side) => [scales.x.getPixelForValue(point.x), scales.y.getPixelForValue(point.band[side])];
        ctx.moveTo(...edge(points[0], 1));
        for (const point of points.slice(1)) ctx.lineTo(...edge(point, 1));
        for (const point of [...points].reverse()) ctx.lineTo(...edge(point, 0));
        ctx.closePath();
        ctx.globalAlpha = 0.18;
        ctx.fillStyle = colour;
        ctx.fill();
        ctx.globalAlpha = 1;
      }
      if (options.reference !== null && options.reference !== undefined) {
        const y = scales.y.getPixelForValue(options.reference);
        ctx.strokeStyle = options.colour;
        ctx.lineWidth = 1;
        ctx.setLineDash([2, 3]);
        ctx.beginPath();
        ctx.moveTo(chartArea.left, y);
        ctx.lineTo(chartArea.right, y);
        ctx.stroke();
      }
    });
  },
};

// A step down is for the worse when bigger is better, and the other way round.
export const isWorse = (changePoint, biggerIsBetter) =>
  changePoint.after.mean < changePoint.before.mean === biggerIsBetter;

// The mean of each stretch between change points, drawn by a plugin rather than as a dataset so
// that it never takes the tooltip from the runs it summarises: a dashed step line over the points.
const STEP_MEANS = {
  id: 'stepMeans',
  afterDatasetsDraw(chart, _args, options) {
    insidePlotArea(chart, ({ ctx, scales }) => {
      ctx.strokeStyle = options.colour;
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 4]);
      for (const steps of options.lines ?? []) {
        ctx.beginPath();
        steps.forEach(({ x, y }, index) => {
          const px = scales.x.getPixelForValue(x);
          // Flat at the previous mean up to this point, then the step to this one.
          if (index > 0) ctx.lineTo(px, scales.y.getPixelForValue(steps[index - 1].y));
          ctx[index === 0 ? 'moveTo' : 'lineTo'](px, scales.y.getPixelForValue(y));
        });
        ctx.stroke();
      }
    });
  },
};

// The change points of one series: the stretches' means (for STEP_MEANS: flat at each mean, a
// step at each change point) and a marker dataset on the first point after each step, red when
// the step is for the worse, green when for the better, pointing the way the values moved.
export function changePointOverlay(series, changePoints, { colour, biggerIsBetter }) {
  if (changePoints.length === 0) return null;
  const xs = series.points.map((point) => point.x);
  const steps = changePoints.map((changePoint, index) => ({
    x: xs[index === 0 ? 0 : changePoints[index - 1].index],
    y: changePoint.before.mean,
  }));
  steps.push(
    { x: xs[changePoints.at(-1).index], y: changePoints.at(-1).after.mean },
    { x: xs.at(-1), y: changePoints.at(-1).after.mean },
  );
  const worse = changePoints.map((changePoint) => isWorse(changePoint, biggerIsBetter));
  const markers = {
    label: `${series.label} change points`,
    overlayOf: series.label,
    data: changePoints.map((changePoint) => ({
      x: xs[changePoint.index],
      y: changePoint.after.mean,
      changePoint,
      point: series.points[changePoint.index],
    })),
    showLine: false,
    pointStyle: 'triangle',
    pointRotation: changePoints.map((changePoint) => (changePoint.after.mean < changePoint.before.mean ? 180 : 0)),
    pointRadius: 9,
    pointHoverRadius: 11,
    pointBackgroundColor: worse.map((bad) => (bad ? REGRESSION_COLOUR : IMPROVEMENT_COLOUR)),
    pointBorderColor: colour,
    pointBorderWidth: 1.5,
    order: -1, // over the line and its points
  };
  return { steps, markers };
}

// Adds a series' change points to a drawn trend chart.
export function addChangePointOverlay(chart, overlay) {
  chart.data.datasets.push(overlay.markers);
  chart.options.plugins.stepMeans.lines.push(overlay.steps);
}

// A load curve's chart reads a variant's values with at(variant, pick): pick of its point at each
// of the chart's load points (`key`: tier or rate), null where it has none.
const valuesAt = (loads, key) => (variant, pick) =>
  loads.map((load) => {
    const point = variant.points.find((candidate) => candidate[key] === load);
    return point ? pick(point) : null;
  });

// A variant's errors + timeouts % at each load point (dashed, on the right axis) of a load curve's
// chart; `at` reads a field of the variant's points in the chart's order.
const failuresDataset = (variant, colour, at) => ({
  label: `${variant.variant} errors %`,
  data: at(variant, (point) => point.failurePct),
  yAxisID: 'failures',
  borderColor: colour,
  backgroundColor: colour,
  borderDash: [6, 4],
  borderWidth: 1.5,
  pointRadius: 2,
});

const failuresAxis = (theme) =>
  axis(theme, 'errors + timeouts %', {
    beginAtZero: true,
    suggestedMax: 2,
    position: 'right',
    grid: { drawOnChartArea: false },
  });

// req/s (solid, left axis) and errors + timeouts % (dashed, right axis) per variant; the knee is a star.
export function tierChartConfig(curve, { colours, theme }) {
  const labels = curve.tiers.map((tier) => loadTag(closedLoad(tier)));
  const at = valuesAt(curve.tiers, 'tier');
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
      failuresDataset(variant, colour, at),
    ];
  });
  const options = baseOptions(theme);
  options.interaction = { mode: 'index', intersect: false };
  options.scales = {
    x: axis(theme, LOAD_AXES.closed),
    y: axis(theme, 'req/s', { beginAtZero: true, position: 'left' }),
    failures: failuresAxis(theme),
  };
  options.plugins.tooltip = {
    callbacks: {
      afterLabel: (item) => {
        const { knee } = item.dataset;
        return knee && loadTag(closedLoad(knee.tier)) === item.label ? `★ saturation knee: ${knee.reason}` : '';
      },
    },
  };
  return { type: 'line', data: { labels, datasets }, options };
}

// p99 (solid) and p50 (dotted) latency on the left axis and errors + timeouts % (dashed, right) per
// variant, against the offered rate: what users wait for at each arrival rate.
export function rateChartConfig(curve, { colours, theme }) {
  const labels = curve.rates.map((rate) => loadTag(openLoad(rate)));
  const at = valuesAt(curve.rates, 'rate');
  const datasets = curve.variants.flatMap((variant) => {
    const colour = colours.get(variant.variant);
    const line = { yAxisID: 'y', borderColor: colour, backgroundColor: colour };
    return [
      { ...line, label: `${variant.variant} p99 latency`, data: at(variant, (point) => point.p99), pointRadius: 3 },
      {
        ...line,
        label: `${variant.variant} p50 latency`,
        data: at(variant, (point) => point.p50),
        borderDash: [2, 3],
        pointRadius: 2,
      },
      failuresDataset(variant, colour, at),
    ];
  });
  const options = baseOptions(theme);
  options.interaction = { mode: 'index', intersect: false };
  options.scales = {
    x: axis(theme, LOAD_AXES.open),
    y: axis(theme, 'latency (ms)', { beginAtZero: true, position: 'left' }),
    failures: failuresAxis(theme),
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
  options.scales = {
    x: axis(theme, ''),
    y: axis(theme, unit && !metric.includes(unit) ? `${metric} (${unit})` : metric, { beginAtZero: true }),
  };
  options.plugins.tooltip = { callbacks: { label: (item) => `${item.dataset.label}: ${formatValue(item.raw, unit)}` } };
  return { type: 'bar', data: { labels: bars.labels, datasets }, options };
}
