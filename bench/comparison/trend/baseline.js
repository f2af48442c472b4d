// Which commit the relative trend of main is measured against: the pinned baseline. A suite's
// `trend.baseline` says how it is chosen:
//   { "tag": "v*" }      the release tag: the tag matching the pattern that is nearest to HEAD in
//                        its history (`git describe --tags --abbrev=0 --match PATTERN HEAD`), i.e.
//                        the last release the measured commit contains (default: "v*");
//   { "commit": "REF" }  a commit (a sha, tag or branch name) named outright.
// The choice is pinned in the baselines file (anchors.js) the first time and moves only by an
// explicit re-anchor, so a new tag never shifts the trend silently.
import { errors } from '../../core/errors.js';
import { gitOutput } from '../../core/git.js';

export const DEFAULT_BASELINE = Object.freeze({ tag: 'v*' });

const commitOf = (repo, ref) => gitOutput(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], repo)?.trim();

/**
 * @param {string} repo the checkout whose HEAD is measured
 * @param {{tag?: string, commit?: string}} selection
 * @returns {{ref: string, sha: string, how: string}}
 */
export function selectBaseline(repo, selection = DEFAULT_BASELINE) {
  if (selection.commit !== undefined) {
    const sha = commitOf(repo, selection.commit);
    if (!sha) throw errors.unknownBaseline(selection.commit, repo);
    return { ref: selection.commit, sha, how: `the commit named in the config (${selection.commit})` };
  }
  const pattern = selection.tag ?? DEFAULT_BASELINE.tag;
  const tag = gitOutput(['describe', '--tags', '--abbrev=0', '--match', pattern, 'HEAD'], repo)?.trim();
  if (!tag) throw errors.noBaselineTag(pattern, repo);
  return { ref: tag, sha: commitOf(repo, tag), how: `the last release tag matching "${pattern}" (${tag})` };
}
