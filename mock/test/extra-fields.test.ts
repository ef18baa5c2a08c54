/** extraFields keyed by label (Custom-field definition): labels are data, whatever they spell. */
import { test, expect } from '@playwright/test';
import { applyExtraFields } from '../domain/extra-fields.ts';
import { Org } from '../store/org.ts';

function org(label: string) {
  const o = new Org('o', 'O', { parts_inventory: true, meters: true, requests: true, request_portals: true }, { currency: 'USD', costTracking: true, staging: { kitted: true, staged: true }, unitCostOverrides: true });
  o.customFields.assets.push({ id: 1, entity: 'assets', data: { id: 1, label, type: 'text', options: [], sortIndex: 0 } });
  return o;
}

test('a label spelled __proto__ is stored like any other', () => {
  const out = applyExtraFields(org('__proto__'), 'assets', JSON.parse('{"__proto__": "x"}'));
  expect(Object.keys(out)).toEqual(['__proto__']);
  expect(JSON.stringify(out)).toBe('{"__proto__":"x"}');
});

test('null clears a value; unknown labels and ill-typed values are refused', () => {
  const o = org('Serial');
  expect(applyExtraFields(o, 'assets', { Serial: null }, { Serial: 'a' })).toEqual({});
  expect(() => applyExtraFields(o, 'assets', { Colour: 'red' })).toThrow(/Validation failed/);
  expect(() => applyExtraFields(o, 'assets', { Serial: 5 })).toThrow(/Validation failed/);
});
