// A memory-heavy Express 4 app, shaped like json-server: an in-memory store of records that
// each request reads through a copy of part of it (json-server's lowdb hands out copies), so
// that every request allocates and the heap holds a large old generation for the collector to
// trace. Its answers are the scenarios' own, so it is verified like every variant.
import express from 'express4';
import { listenHandler } from '../contract/contract.js';
import { expressApp } from '../routes/express-app.js';

export const packages = ['express4'];
export const scenarios = ['hello', 'json', 'query'];

const RECORDS = 50_000;
const COPIED_PER_REQUEST = 400;

const store = Array.from({ length: RECORDS }, (_, id) => ({
  id,
  title: `record ${id}`,
  author: `author-${id % 97}`,
  tags: [`t${id % 7}`, `t${id % 11}`],
  views: id * 3,
}));

let cursor = 0;
// The last copy stays reachable until the next request, as a router's locals would.
const kept = { copy: null };

export function start(ctx, { port, host }) {
  const app = expressApp(express, {
    ...ctx,
    onRequest(method, url) {
      cursor = (cursor + COPIED_PER_REQUEST) % (RECORDS - COPIED_PER_REQUEST);
      kept.copy = store
        .slice(cursor, cursor + COPIED_PER_REQUEST)
        .map((record) => ({ ...record, tags: [...record.tags] }));
      ctx.onRequest(method, url);
    },
  });
  return listenHandler(app, port, host);
}
