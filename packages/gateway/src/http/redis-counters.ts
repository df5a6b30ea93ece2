// The request limit's shared store in Redis (REDIS_URL): one round trip per share, whatever the
// number of keys. Commands fail at once while Redis is away instead of queueing, so the limit
// falls back to counting in the process (http/shared-request-counts.ts) without waiting.
import { Redis } from 'ioredis';
import type { SharedCounters, SharedHits } from './shared-request-counts.js';

const NAMESPACE = 'blockcatch-rate-limit:';

// INCRBY, starting the window's expiry on its first hit; a key left without one gets it back.
const ADD_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return { count, ttl }`;

type WithAdd = Redis & {
  blockcatchAddHits(key: string, by: number, windowMs: number): Promise<[number, number]>;
};

export interface RedisCounters extends SharedCounters {
  /** Resolves once connected, or after `waitMs` without (the limit then starts in the process). */
  connected(waitMs: number): Promise<void>;
  close(): Promise<void>;
}

export function redisCounters(url: string): RedisCounters {
  const redis = new Redis(url, {
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    // Reconnect for as long as the gateway runs, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 100, 2000),
  }) as WithAdd;
  // Connection errors are expected while Redis is away: the failed shares report them, once a
  // minute (http/shared-request-counts.ts), instead of ioredis's line per reconnection.
  redis.on('error', () => {});
  redis.defineCommand('blockcatchAddHits', { numberOfKeys: 1, lua: ADD_SCRIPT });

  return {
    name: 'redis',
    async add(hits: SharedHits[], now: number) {
      const pipeline = redis.pipeline();
      for (const { key, by, windowMs } of hits) {
        (pipeline as unknown as WithAdd).blockcatchAddHits(`${NAMESPACE}${key}`, by, windowMs);
      }
      const results = (await pipeline.exec()) ?? [];
      return hits.map((_, i) => {
        const [error, answer] = results[i] ?? [new Error('Redis gave no answer')];
        if (error) throw error;
        const [count, ttl] = answer as [number, number];
        return { count, windowEnd: now + ttl };
      });
    },
    async connected(waitMs) {
      if (redis.status === 'ready') return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, waitMs);
        function done() {
          clearTimeout(timer);
          redis.off('ready', done);
          resolve();
        }
        redis.once('ready', done);
      });
    },
    async close() {
      redis.disconnect();
    },
  };
}
