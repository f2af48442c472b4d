// Each side of a comparison on a network of its own inside the private network namespace
// (./private-network.js), where the harness is root when perfgate runs as root: a side's servers,
// its mock backend and its database listen on the side's loopback address (the whole 127/8 is
// local on lo), and its processes run as a uid of their own, which packet rules of that namespace
// (nftables, fenceRules) keep to the side's own addresses. So a side cannot reach the other's
// servers, backend or database, even a listener on every address, nor catch the harness's
// requests for them; the harness (root: the load engine, the checks) reaches both. Without root
// both sides run as the user's uid and only the addresses differ: their records say so.
import { spawnSync } from 'node:child_process';
import { asRoot, SANDBOX_UID } from './bubblewrap.js';
import { onlyLoopback } from './private-network.js';

/**
 * A side's uid (as root) and loopback addresses, by its place in the comparison. Neither uid is
 * the sandbox's own (SANDBOX_UID, also the database's when there is no postgres user), so the
 * rules fence the sides' processes only.
 */
export const SIDE_NETWORKS = {
  base: { uid: SANDBOX_UID - 1, address: '127.0.1.1', range: '127.0.1.0/24' },
  head: { uid: SANDBOX_UID - 2, address: '127.0.2.1', range: '127.0.2.0/24' },
};

const TABLE = 'perfgate_sides';
// The chain of what a side's packets meet where they arrive.
const INBOUND = '_in';

/**
 * Pure: the nftables ruleset that fences each side's uid. Its packets are marked as its own
 * (output); it may open connections only to its own range, answer only from its own addresses
 * (a listener it put on another side's address stays silent), and, at its own addresses, not
 * reach a listener on every address (input: such a socket, whoever owns it, answers there too).
 */
export function fenceRules(networks = SIDE_NETWORKS) {
  const sides = Object.entries(networks).map(([key, network], index) => ({ key, mark: index + 1, ...network }));
  return [
    // Made and deleted first, so that the ruleset replaces one an earlier comparison left here.
    `table inet ${TABLE} {}`,
    `delete table inet ${TABLE}`,
    `table inet ${TABLE} {`,
    '  chain output {',
    '    type filter hook output priority filter; policy accept;',
    ...sides.map(({ key, uid }) => `    meta skuid ${uid} jump ${key}`),
    '  }',
    '  chain input {',
    '    type filter hook input priority filter; policy accept;',
    ...sides.map(({ key, mark }) => `    meta mark ${mark} jump ${key}${INBOUND}`),
    '  }',
    ...sides.flatMap(({ key, mark, range }) => [
      `  chain ${key} {`,
      `    meta mark set ${mark}`,
      `    ip daddr ${range} accept`,
      '    tcp flags & (syn | ack) == syn counter reject',
      // Its servers answer the harness's connections (to its addresses) from its addresses.
      `    ip saddr ${range} accept`,
      '    counter drop',
      '  }',
      `  chain ${key}${INBOUND} {`,
      '    tcp flags & (syn | ack) != syn accept',
      '    socket wildcard 1 counter reject',
      '  }',
    ]),
    '}',
    '',
  ].join('\n');
}

/** Pure: `nft -j list table` output -> the packets each side's rules refused, by side. */
export function refusedBySide(listing) {
  const refused = {};
  for (const { rule } of JSON.parse(listing).nftables ?? []) {
    const counter = rule?.expr?.find((expr) => expr.counter)?.counter;
    const side = rule?.chain.replace(new RegExp(`${INBOUND}$`), '');
    if (counter) refused[side] = (refused[side] ?? 0) + counter.packets;
  }
  return refused;
}

/** Pure: what a side's sandbox record says of its network; `unfenced`: why it is not fenced, if so. */
export const networkLine = ({ address, range, uid }, unfenced) =>
  unfenced
    ? `on ${address}, but it could reach the other side's servers: ${unfenced}`
    : `its own addresses (${range}) and uid (${uid}): its connections elsewhere refused`;

const nft = (args, input) => spawnSync('nft', args, { input, encoding: 'utf8', timeout: 10_000 });

// Why the sides' connections cannot be fenced here, or null once the rules are in place.
function installFence() {
  if (!asRoot()) return 'not run as root, both sides run as one uid';
  if (!onlyLoopback()) return 'not in the private network namespace';
  const installed = nft(['-f', '-'], fenceRules());
  if (installed.error?.code === 'ENOENT') return 'nft is not installed (Debian package nftables)';
  if (installed.status !== 0)
    return `nft refused the rules (${(installed.stderr || installed.error?.message || '').trim().split('\n').at(-1)})`;
  return null;
}

/**
 * Puts the sandboxed sides of a comparison on their networks (as root: its uid, and the rules).
 * @param {{base: object, head: object}} sides
 * @returns {{sides: object, network: (key: string) => string, refusals: (key: string) => string[]}}
 *   sides: each sandbox with its `address` and (as root) `uid`; network: the one line a side's
 *   sandbox record says of its network; refusals: the side's refused connections, as its misbehaviour
 */
export function fenceSides(sides) {
  const fenced = Object.keys(sides).filter((key) => sides[key].sandbox && SIDE_NETWORKS[key]);
  if (!fenced.length) return { sides, network: () => undefined, refusals: () => [] };
  const unfenced = installFence();
  const placed = Object.fromEntries(
    Object.entries(sides).map(([key, side]) => {
      if (!fenced.includes(key)) return [key, side];
      const { uid, address } = SIDE_NETWORKS[key];
      return [key, { ...side, sandbox: { ...side.sandbox, address, ...(asRoot() ? { uid } : {}) } }];
    }),
  );
  return {
    sides: placed,
    network: (key) => networkLine(SIDE_NETWORKS[key], unfenced),
    refusals(key) {
      if (unfenced || !fenced.includes(key)) return [];
      const listing = nft(['-j', 'list', 'table', 'inet', TABLE]);
      const refused = listing.status === 0 ? refusedBySide(listing.stdout)[key] : 0;
      return refused
        ? [
            `reached outside its own addresses (${SIDE_NETWORKS[key].range}: the other side's servers, the harness's, a listener on every address): ${refused} packets refused`,
          ]
        : [];
    },
  };
}
