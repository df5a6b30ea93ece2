import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';

describe('eventually', () => {
  it('returns the value once the assertion passes', async () => {
    let tries = 0;
    const value = await eventually(() => {
      tries += 1;
      if (tries < 3) throw new Error('not yet');
      return tries;
    });
    expect(value).toBe(3);
  });

  it("fails with the assertion's last error when the timeout runs out", async () => {
    await expect(
      eventually(
        () => {
          throw new Error('still wrong');
        },
        { timeout: 50, interval: 5 },
      ),
    ).rejects.toThrow('still wrong');
  });
});
