// One colour per series label, the same in every chart of the page. Mid-tone colours
// that read on light and dark backgrounds; red is left out because it marks regressions.
const COLOURS = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#b07aa1',
  '#76b7b2',
  '#edc948',
  '#9c755f',
  '#ff9da7',
  '#17becf',
  '#bab0ac',
];
export const REGRESSION_COLOUR = '#d62728';
export const IMPROVEMENT_COLOUR = '#2ca02c';

export function paletteFor(labels) {
  const sorted = [...new Set(labels)].sort();
  return new Map(sorted.map((label, index) => [label, COLOURS[index % COLOURS.length]]));
}
