import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.ts';
import { storageMode } from '../../src/store/create-stores.ts';

describe('storage settings', () => {
  it('default to the embedded mode, schema scout and prefix scout:', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      databaseUrl: undefined,
      databaseSchema: 'scout',
      databasePoolSize: 10,
      redisUrl: undefined,
      redisPrefix: 'scout:',
    });
    expect(storageMode(c)).toBe('embedded');
  });

  it('choose PostgreSQL alone, or PostgreSQL with Redis', () => {
    const pg = loadConfig({
      SCOUT_DATABASE_URL: ' postgres://scout:pw@db.internal:5432/scout ',
      SCOUT_DATABASE_SCHEMA: 'team_a',
    });
    expect(pg).toMatchObject({ databaseUrl: 'postgres://scout:pw@db.internal:5432/scout', databaseSchema: 'team_a' });
    expect(storageMode(pg)).toBe('postgres');
    const both = loadConfig({
      SCOUT_DATABASE_URL: 'postgresql://db/scout',
      SCOUT_REDIS_URL: 'rediss://cache:6380/2',
      SCOUT_REDIS_PREFIX: 'team-a:',
    });
    expect(both).toMatchObject({ redisUrl: 'rediss://cache:6380/2', redisPrefix: 'team-a:' });
    expect(storageMode(both)).toBe('postgres+redis');
  });

  it('refuses Redis without PostgreSQL in one line saying what to set', () => {
    const start = () => loadConfig({ SCOUT_REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(
      /^SCOUT_REDIS_URL needs SCOUT_DATABASE_URL: .*set SCOUT_DATABASE_URL too, or unset SCOUT_REDIS_URL$/,
    );
  });

  it.each([
    [
      'SCOUT_DATABASE_URL',
      'mysql://u:hunter2@db/scout',
      /^SCOUT_DATABASE_URL the PostgreSQL URL must start with postgres:\/\/ or postgresql:\/\/ \(got mysql:\/\/\)$/,
    ],
    ['SCOUT_DATABASE_URL', 'db.internal:5432', /^SCOUT_DATABASE_URL the PostgreSQL URL must start with postgres:\/\//],
    ['SCOUT_DATABASE_URL', 'not a url', /^SCOUT_DATABASE_URL the PostgreSQL URL is not a URL/],
    ['SCOUT_DATABASE_SCHEMA', 'Scout-Prod', /^SCOUT_DATABASE_SCHEMA PostgreSQL schema must be a lower-case SQL name/],
    ['SCOUT_DATABASE_SCHEMA', '1scout', /^SCOUT_DATABASE_SCHEMA PostgreSQL schema must be a lower-case SQL name/],
    [
      'SCOUT_REDIS_URL',
      'http://u:hunter2@cache',
      /^SCOUT_REDIS_URL the Redis URL must start with redis:\/\/ or rediss:\/\//,
    ],
    ['SCOUT_DATABASE_POOL_SIZE', '0', /^SCOUT_DATABASE_POOL_SIZE must be an integer from 1 to 1000, got 0$/],
    ['SCOUT_DATABASE_POOL_SIZE', 'ten', /^SCOUT_DATABASE_POOL_SIZE must be an integer from 1 to 1000, got "ten"$/],
    ['SCOUT_REDIS_PREFIX', 'has space', /^SCOUT_REDIS_PREFIX the Redis key prefix must be 1 to 100 letters/],
  ])('%s=%s stops the start naming the variable, never echoing a password', (name, value, message) => {
    const env = { SCOUT_DATABASE_URL: 'postgres://db/scout', [name]: value };
    expect(() => loadConfig(env)).toThrow(message);
    try {
      loadConfig(env);
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
    }
  });
});
