import { describe, expect, it } from 'vitest';
import { integerSetting, parseUrlSetting, readSetting, urlSetting } from './envSettings.ts';

class SettingError extends Error {}
const refuse = (message: string) => new SettingError(message);
const range = { fallback: 7, min: 1, max: 100 };

describe('readSetting', () => {
  it('trims a value and counts a blank or missing one as unset', () => {
    expect(readSetting({ A: '  x ' }, 'A')).toBe('x');
    expect(readSetting({ A: '   ' }, 'A')).toBeUndefined();
    expect(readSetting({ A: '' }, 'A')).toBeUndefined();
    expect(readSetting({}, 'A')).toBeUndefined();
  });
});

describe('integerSetting', () => {
  it('reads a whole number within its range, or the fallback when unset', () => {
    expect(integerSetting({ N: ' 42 ' }, 'N', range, refuse)).toBe(42);
    expect(integerSetting({ N: '1' }, 'N', range, refuse)).toBe(1);
    expect(integerSetting({ N: '100' }, 'N', range, refuse)).toBe(100);
    expect(integerSetting({}, 'N', range, refuse)).toBe(7);
    expect(integerSetting({ N: ' ' }, 'N', range, refuse)).toBe(7);
  });

  it.each([
    ['-1', /whole number, got "-1"/],
    ['1.5', /whole number/],
    ['1e3', /whole number/],
    ['0x10', /whole number/],
    ['0', /between 1 and 100, got 0/],
    ['101', /between 1 and 100, got 101/],
    ['99999999999999999999', /between 1 and 100/],
  ])('refuses %s through the caller’s error', (raw, message) => {
    expect(() => integerSetting({ N: raw }, 'N', range, refuse)).toThrow(SettingError);
    expect(() => integerSetting({ N: raw }, 'N', range, refuse)).toThrow(message);
  });
});

describe('urlSetting', () => {
  const rule = { protocols: ['postgres:', 'postgresql:'], example: 'postgres://host/db' };

  it('parses a URL of one of the schemes; unset or blank: undefined', () => {
    expect(urlSetting({ U: ' postgresql://u@h:5432/db ' }, 'U', rule, refuse)?.pathname).toBe('/db');
    expect(urlSetting({ U: ' ' }, 'U', rule, refuse)).toBeUndefined();
    expect(urlSetting({}, 'U', rule, refuse)).toBeUndefined();
  });

  it('refuses another scheme or no URL, through the caller’s error, without repeating the value', () => {
    expect(() => urlSetting({ U: 'mysql://u:hunter2@h/db' }, 'U', rule, refuse)).toThrow(
      /^U must start with postgres:\/\/ or postgresql:\/\/, got "mysql:\/\/…"$/,
    );
    expect(() => urlSetting({ U: 'postgres://u:hunter2@[h/db' }, 'U', rule, refuse)).toThrow(
      /^U must be a URL such as postgres:\/\/host\/db$/,
    );
    expect(() => parseUrlSetting('U', 'nope', rule, refuse)).toThrow(SettingError);
  });
});
