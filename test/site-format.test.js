// How the trend site writes numbers, changes and dates.
import test from 'node:test';
import assert from 'node:assert/strict';
import { formatChange, formatDate, formatNumber, formatShare, formatValue } from '../site/lib/format.js';

test('numbers keep few digits and their unit', () => {
  assert.equal(formatNumber(12160.5), '12,161');
  assert.equal(formatNumber(20.75), '20.8');
  assert.equal(formatNumber(1.234), '1.23');
  assert.equal(formatNumber(null), '–');
  assert.equal(formatValue(0.2, '%'), '0.2 %');
  assert.equal(formatValue(5321.4, 'req/s'), '5,321 req/s');
  assert.equal(formatValue(3, ''), '3');
});

test('changes are signed percentages', () => {
  assert.equal(formatChange(0.125), '+12.5 %');
  assert.equal(formatChange(-0.2158), '−21.6 %');
  assert.equal(formatChange(null), '');
  assert.equal(formatShare(0.916), '92 %');
});

test('dates in UTC from ISO text or epoch milliseconds, nothing from garbage', () => {
  assert.equal(formatDate('2026-02-19T22:55:28+08:00'), '2026-02-19 14:55');
  assert.equal(formatDate(1771513003896), '2026-02-19 14:56');
  assert.equal(formatDate('yesterday'), '');
  assert.equal(formatDate(1e20), '');
  assert.equal(formatDate(undefined), '');
});
