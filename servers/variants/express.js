// Express 5.
import express from 'express';
import { listenHandler } from '../contract/contract.js';
import { expressApp } from '../routes/express-app.js';

export const packages = ['express'];

export function start(ctx, { port, host }) {
  return listenHandler(expressApp(express, ctx), port, host);
}
