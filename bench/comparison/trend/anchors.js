// The baselines file: which commit the relative trend is pinned to, and every earlier baseline
// with the measured link between each two (the new baseline against the old one, per trend
// line, with its interval). It lives beside the history (baselines.json next to data.js; on
// gh-pages dev/bench/baselines.json) and only `perfgate trend` writes it: the first run pins a
// baseline, `--reanchor` adds one with its link.
import Ajv from 'ajv';
import { writeFileAtomicSync } from '../../core/atomic-file.js';
import { errors } from '../../core/errors.js';
import { readInputJson } from '../../core/read-file.js';

export const BASELINES_FORMAT = { format: 'perfgate-baselines', version: 1 };
export const BASELINES_FILE = 'baselines.json';

const sha = { type: 'string', pattern: '^[0-9a-f]{40}$' };
const ratio = { type: 'number', exclusiveMinimum: 0 };
const anchor = {
  type: 'object',
  required: ['ref', 'sha', 'pinnedAt'],
  properties: {
    ref: { type: 'string', minLength: 1, maxLength: 300 },
    sha,
    how: { type: 'string', maxLength: 500 },
    pinnedAt: { type: 'string' },
    // How the trend lines moved from the previous baseline to this one: ratio = this / previous.
    link: {
      type: 'object',
      required: ['from', 'ratios'],
      properties: {
        from: sha,
        measuredAt: { type: 'string' },
        ratios: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['ratio', 'ci'],
            properties: { ratio, ci: { type: 'array', minItems: 2, maxItems: 2, items: ratio } },
          },
        },
      },
    },
  },
};
const schema = {
  type: 'object',
  required: ['format', 'version', 'anchors'],
  properties: {
    format: { const: BASELINES_FORMAT.format },
    version: { const: BASELINES_FORMAT.version },
    anchors: { type: 'array', minItems: 1, items: anchor },
  },
};
const validate = new Ajv({ allErrors: true }).compile(schema);

// null when the file does not exist yet (no baseline pinned).
export function readBaselines(file) {
  const state = readInputJson(file, (problem) => errors.badBaselines(file, problem), { missing: null });
  if (state === null) return null;
  if (!validate(state))
    throw errors.badBaselines(
      file,
      `is not valid: ${validate.errors.map((each) => `${each.instancePath || '/'} ${each.message}`).join('; ')}`,
    );
  return state;
}

export function writeBaselines(file, state) {
  writeFileAtomicSync(file, `${JSON.stringify(state, null, 2)}\n`);
}

export const currentAnchor = (state) => state.anchors.at(-1);

// The state with `baseline` ({ref, sha, how}) pinned as its first anchor.
export const pinFirst = (baseline, now = new Date()) => ({
  ...BASELINES_FORMAT,
  anchors: [{ ...baseline, pinnedAt: now.toISOString() }],
});

// The state with `baseline` added as the new anchor, linked to the current one by `ratios`
// ({ [trend line]: { ratio, ci } }, the new baseline measured against the old).
export function addAnchor(state, baseline, ratios, now = new Date()) {
  const from = currentAnchor(state).sha;
  return {
    ...state,
    anchors: [
      ...state.anchors,
      { ...baseline, pinnedAt: now.toISOString(), link: { from, measuredAt: now.toISOString(), ratios } },
    ],
  };
}

/**
 * The links a trend line is chained over, oldest first, back from the current anchor to the
 * oldest anchor every link since has measured for that line; and that anchor (the line's origin).
 * @returns {{origin: object, links: {from: string, to: string, ratio: number, ci: number[]}[]}}
 */
export function chainOf(state, name) {
  const links = [];
  let index = state.anchors.length - 1;
  for (; index > 0; index--) {
    const measured = state.anchors[index].link?.ratios[name];
    if (!measured) break;
    links.unshift({ from: state.anchors[index - 1].ref, to: state.anchors[index].ref, ...measured });
  }
  return { origin: state.anchors[index], links };
}

/**
 * The baselines files of several shards of one run (bench-main measures a variant per shard) as
 * one: the same baselines in the same order, and the newest link holding every shard's lines
 * (each shard measured the link for its own). Shards pinned to different baselines cannot be merged.
 */
export function mergeBaselines(states) {
  if (!states.length) return null;
  const shape = (state) => state.anchors.map((anchor) => anchor.sha).join(' ');
  const [first, ...others] = states;
  const differing = others.find((state) => shape(state) !== shape(first));
  if (differing)
    throw errors.badBaselines(
      'of the shards',
      `differ: one has the baselines ${shape(first)}, another ${shape(differing)} (a re-anchor that only some shards ran?); run the re-anchor again`,
    );
  const last = currentAnchor(first);
  if (!last.link) return first;
  const ratios = Object.assign({}, ...states.map((state) => currentAnchor(state).link.ratios));
  return { ...first, anchors: [...first.anchors.slice(0, -1), { ...last, link: { ...last.link, ratios } }] };
}
