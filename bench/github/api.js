// A small client of GitHub's REST API on fetch. The token goes only to the API's own origin:
// pagination links pointing elsewhere are refused, and redirects are not followed.
import { githubErrors } from '../core/errors.js';

const TIMEOUT_MS = 30_000;

// The "next" address of a Link header: <https://...?page=2>; rel="next", ...
function nextLink(header) {
  for (const part of (header ?? '').split(',')) {
    const match = /^\s*<([^>]+)>\s*;\s*rel="next"\s*$/.exec(part);
    if (match) return match[1];
  }
  return null;
}

export function githubApi({ apiUrl, token, fetchImpl = fetch }) {
  const origin = new URL(apiUrl).origin;

  async function call(method, address, body) {
    const url = new URL(address, `${apiUrl}/`);
    if (url.origin !== origin)
      throw githubErrors.api(method, url.pathname, 'a link to another host', `${url.origin} is not ${origin}`);
    const response = await fetchImpl(url, {
      method,
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'perfgate',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // An error page that is not JSON: its status says enough.
    }
    return { status: response.status, json, link: response.headers.get('link'), path: url.pathname };
  }

  return {
    // Resolves to the parsed answer; statuses in `allow` (e.g. 404) resolve to null.
    async request(method, path, body, { allow = [] } = {}) {
      const answer = await call(method, `${apiUrl}${path}`, body);
      if (answer.status >= 200 && answer.status < 300) return answer.json;
      if (allow.includes(answer.status)) return null;
      throw githubErrors.api(method, answer.path, answer.status, answer.json?.message);
    },
    // Every item of a paginated list, page after page, as long as the API links a next one.
    async *paginate(path, { pick = (json) => json, maxPages = 100 } = {}) {
      let address = `${apiUrl}${path}`;
      for (let page = 0; address && page < maxPages; page += 1) {
        const answer = await call('GET', address);
        if (answer.status !== 200) throw githubErrors.api('GET', answer.path, answer.status, answer.json?.message);
        yield* pick(answer.json) ?? [];
        address = nextLink(answer.link);
      }
    },
  };
}
