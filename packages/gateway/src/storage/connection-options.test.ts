import { describe, expect, it } from 'vitest';
import { connectionOptions } from './connection-options.js';

describe('connection options', () => {
  it("keep the gateway's settings and add the operator's after them", () => {
    const { connectionString, options } = connectionOptions(
      'postgres://app:s%40cret@db.internal:5432/blockcatch?sslmode=require&options=-c%20statement_timeout%3D5000',
      ['-c jit=off', '-c search_path=tenant'],
    );
    expect(options).toBe('-c jit=off -c search_path=tenant -c statement_timeout=5000');
    expect(connectionString).toBe(
      'postgres://app:s%40cret@db.internal:5432/blockcatch?sslmode=require',
    );
  });

  it('leave a connection string without options as it is', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/test';
    expect(connectionOptions(url, ['-c jit=off'])).toEqual({
      connectionString: url,
      options: '-c jit=off',
    });
  });
});
