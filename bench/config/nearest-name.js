// Pure: the known name a mistyped one was meant to be ("readyPth" -> "readyPath"), by edit
// distance (insertions, deletions, substitutions and swaps of neighbours, Damerau's
// optimal-string-alignment form), or undefined when none is close enough to be a typo.

function editDistance(a, b) {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/**
 * @param {string} given
 * @param {string[]} known
 * @returns {string|undefined} the closest known name, if at most a third of it differs (case aside)
 */
export function nearestName(given, known) {
  const typed = String(given).toLowerCase();
  let best;
  let bestDistance = Math.max(1, Math.floor(typed.length / 3)) + 1;
  for (const name of known) {
    const distance = editDistance(typed, name.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return best;
}
