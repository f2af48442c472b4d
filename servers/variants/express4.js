// Express 4 (npm alias `express4`), beside Express 5 in the frameworks table.
import express from 'express4';
import { listenHandler } from '../contract/contract.js';
import { expressApp } from '../routes/express-app.js';

export const packages = ['express4'];

export function start(ctx, { port, host }) {
  return listenHandler(expressApp(express, ctx), port, host);
}
