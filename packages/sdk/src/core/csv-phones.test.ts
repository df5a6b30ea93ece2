import { describe, expect, it } from 'vitest';
import { collectPhones, findPhoneColumn } from './csv-phones.js';

describe('findPhoneColumn', () => {
  it('finds the phone column whatever its spelling', () => {
    expect(findPhoneColumn(['name', 'Phone Number'])).toBe('Phone Number');
    expect(findPhoneColumn(['phone_number'])).toBe('phone_number');
    expect(findPhoneColumn(['name', 'email'])).toBeNull();
  });
});

describe('collectPhones', () => {
  it('normalises numbers, drops repeats and reports bad rows by line', () => {
    const list = collectPhones(
      [
        { line: 2, record: { phone: '(305) 555-0123' } },
        { line: 3, record: { phone: 'not a phone' } },
        { line: 4, record: { phone: '' } },
        { line: 5, record: { phone: '13055550123' } },
        { line: 6, record: { phone: '305 555 0124' } },
      ],
      'phone',
    );
    expect(list.phones).toEqual(['+13055550123', '+13055550124']);
    expect(list.problems).toEqual([
      { line: 3, value: 'not a phone', reason: 'invalid' },
      { line: 4, value: '', reason: 'empty' },
    ]);
  });
});
