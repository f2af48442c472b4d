// "owner/name" from a repository URL (the data's repoUrl), for the page's title; null when none.
export function repoTitle(repoUrl) {
  if (!repoUrl) return null;
  try {
    const path = new URL(repoUrl).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
    return path || repoUrl;
  } catch {
    return repoUrl;
  }
}
