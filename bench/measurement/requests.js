// The request a benchmark sends and the answer it expects: from the common scenarios for
// built-in variants, from the suite config for a user's own server. One description feeds
// both the verification and the load generator, so what is verified is what is measured.
import { echoPayload, SCENARIOS } from '../../servers/contract/scenarios.js';

const PROMPT = JSON.stringify({ model: 'perfgate-mock', prompt: 'Say hello.', max_tokens: 16 });

function builtInRequest(scenario, options) {
  const { method, path, respond } = SCENARIOS[scenario];
  const body = scenario === 'echo' ? echoPayload(options.echoBytes) : scenario === 'proxy' ? PROMPT : undefined;
  const headers = body === undefined ? {} : { 'content-type': 'application/json' };
  const expected = respond(body);
  const expect = { status: 200, contentType: expected.type, body: expected.body };
  if (SCENARIOS[scenario].staticFile)
    Object.assign(expect, { contentLength: String(Buffer.byteLength(expected.body)), mediaTypeOnly: true });
  return { method, path, headers, body, expect };
}

function commandRequest(declared) {
  const { method = 'GET', path, headers = {}, body, expect } = declared;
  return { method, path, headers, body, expect };
}

export function requestFor(variant, spec) {
  return variant.kind === 'command'
    ? commandRequest(variant.requests[spec.scenario])
    : builtInRequest(spec.scenario, spec.options);
}
