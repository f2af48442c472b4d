// Wilcoxon's signed-rank test and the Hodges–Lehmann estimate with its exact confidence interval, for
// paired differences (Hollander & Wolfe, Nonparametric Statistical Methods, ch. 3; R's wilcox.test).
// Distribution-free: a burst of interference that wrecks one round moves a rank, not the mean.

// Cumulative null distribution of W+ for n pairs: cdf[w] = P(W+ <= w), W+ ranging over 0 .. n(n+1)/2.
// Built by adding one rank at a time, each in the sum with probability 1/2.
export function signedRankCdf(n) {
  let density = [1];
  for (let rank = 1; rank <= n; rank += 1) {
    const next = new Array(density.length + rank).fill(0);
    density.forEach((probability, sum) => {
      next[sum] += probability / 2;
      next[sum + rank] += probability / 2;
    });
    density = next;
  }
  let cumulative = 0;
  return density.map((probability) => (cumulative += probability));
}

// Ranks of the values (1-based), ties sharing their average rank.
function midranks(values) {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].value === order[start].value) end += 1;
    for (let i = start; i <= end; i += 1) ranks[order[i].index] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

// Two-sided exact test of "the differences are symmetric about 0". Zero differences are dropped (Wilcoxon's
// rule, R's default); with ties the exact distribution is an approximation, rounded towards the larger p.
export function signedRankTest(differences) {
  const nonZero = differences.filter((difference) => difference !== 0);
  if (nonZero.length === 0) return { w: 0, n: 0, pValue: 1 };
  const ranks = midranks(nonZero.map(Math.abs));
  const w = nonZero.reduce((sum, difference, index) => sum + (difference > 0 ? ranks[index] : 0), 0);
  const cdf = signedRankCdf(nonZero.length);
  const atMost = cdf[Math.floor(w)];
  const atLeast = 1 - (Math.ceil(w) > 0 ? cdf[Math.ceil(w) - 1] : 0);
  return { w, n: nonZero.length, pValue: Math.min(1, 2 * Math.min(atMost, atLeast)) };
}

// The n(n+1)/2 Walsh averages (d_i + d_j) / 2, i <= j, sorted.
function walshAverages(differences) {
  const averages = [];
  for (let i = 0; i < differences.length; i += 1) {
    for (let j = i; j < differences.length; j += 1) averages.push((differences[i] + differences[j]) / 2);
  }
  return averages.sort((a, b) => a - b);
}

// Hodges–Lehmann estimate of the centre of the differences (the median of the Walsh averages), and its exact
// interval at any level (`intervalAt`): the one that inverts the signed-rank test, from the c-th smallest to the
// c-th largest Walsh average, c the largest count with P(W+ <= c - 1) <= (1 - confidence) / 2. Fewer than 6 pairs
// cannot reach 95 % (5 can reach 90 %): the interval is then null (unbounded). The Walsh averages and the null
// distribution are computed once for every level asked.
export function hodgesLehmann(differences) {
  const walsh = walshAverages(differences);
  const middle = (walsh.length - 1) / 2;
  const cdf = signedRankCdf(differences.length);
  const intervalAt = (confidence) => {
    let count = 0;
    while (cdf[count] <= (1 - confidence) / 2) count += 1;
    return count === 0 ? null : [walsh[count - 1], walsh[walsh.length - count]];
  };
  return { estimate: (walsh[Math.floor(middle)] + walsh[Math.ceil(middle)]) / 2, intervalAt };
}
