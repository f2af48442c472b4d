// ultimate-express: Express's API on uWebSockets.js (the npm mirror in package.json's overrides).
import { expressApp } from '../routes/express-app.js';
import { uwsUnavailable } from '../probes/uws-binary.js';

export const packages = ['ultimate-express', 'uWebSockets.js'];
export const unavailable = uwsUnavailable;

export async function start(ctx, { port, host }) {
  const { default: express } = await import('ultimate-express'); // loads the addon: see uws-binary.js
  const app = expressApp(express, ctx);
  return new Promise((resolve) => {
    app.listen(port, host, () => resolve({ port: app.address().port, close: async () => app.close() }));
  });
}
