import { openSponsoredStore } from '../../src/store/sqlite/open-sponsored-store.ts';
import { runScout } from '../helpers/cli.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.ts';
import { formatMicros } from '../../src/cli/campaigns-command.ts';
import { createSponsored } from '../../src/sponsored/create-sponsored.ts';
import { campaignFile as fixtureCampaign, ctx, searchQuery } from '../sponsored/sponsored-fixture.ts';

/** `scout campaigns …` in-process, through the real CLI entry. */
const campaigns = (argv: string[], env: Record<string, string>, stdin = '') =>
  runScout(['campaigns', ...argv], env, stdin);

const setup = () => {
  const root = mkdtempSync(join(tmpdir(), 'scout-cli-campaigns-'));
  const file = (name: string, value: unknown) => {
    const p = join(root, name);
    writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value));
    return p;
  };
  // The landing page is an IP literal on the allowlisted fixture range: judged by the same
  // address policy as on the server, with no DNS look-up (tests never leave the machine).
  return { env: { SCOUT_DATA_DIR: join(root, 'data'), SCOUT_FETCH_ALLOW_CIDRS: '127.0.0.2/32' }, file };
};

// A real landing page on the allowlisted fixture address: the CLI requests it (and follows its
// redirects) before storing a campaign. A trap on 127.0.0.1 proves a refused hop is never asked.
let landing: FixtureServer;
let trap: FixtureServer;
beforeAll(async () => {
  trap = await startFixtureServer({}, { host: '127.0.0.1' });
  landing = await startFixtureServer({
    '/shoes': { headers: { 'content-type': 'text/html' }, body: '<p>Shoes.</p>' },
    '/to-loopback': { status: 302, headers: { location: trap.url('/admin/v1/campaigns') } },
    '/to-shoes': { status: 301, headers: { location: '/shoes' } },
  });
});
afterAll(async () => {
  await landing?.close();
  await trap?.close();
});

const campaignFile = (over: Record<string, unknown> = {}) => fixtureCampaign({ url: landing.url('/shoes'), ...over });

describe('scout campaigns', () => {
  it('create prints the id; list, show, pause, resume, update and delete work on it', async () => {
    const { env, file } = setup();
    const created = await campaigns(
      ['create', '--file', file('c.json', campaignFile({ daily_cap_micros: 2_500_000 }))],
      env,
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const id = created.stdout.trim();
    expect(id).toMatch(/^cmp_[0-9A-Za-z]{16}$/);
    expect((await campaigns(['list'], env)).stdout).toBe(
      `${id}\tactive\tAcme\tAcme trail running shoes\tbid 0.10\tbudget 10.00\tcap/day 2.50\n`,
    );
    expect(JSON.parse((await campaigns(['show', id], env)).stdout)).toMatchObject({
      id,
      disclosure: 'Sponsored · Acme',
    });
    expect((await campaigns(['pause', id], env)).stdout).toBe(`paused ${id}\n`);
    expect(JSON.parse((await campaigns(['list', '--json'], env)).stdout)[0].status).toBe('paused');
    expect((await campaigns(['resume', id], env)).stdout).toBe(`resumed ${id}\n`);
    expect(
      (await campaigns(['update', id, '--file', '-'], env, JSON.stringify(campaignFile({ title: 'Renamed' })))).code,
    ).toBe(0);
    expect(JSON.parse((await campaigns(['show', id], env)).stdout).title).toBe('Renamed');
    expect((await campaigns(['delete', id], env)).stdout).toBe(`deleted ${id}\n`);
    expect((await campaigns(['list'], env)).stdout).toBe('no campaigns\n');
    expect((await campaigns(['pause', id], env)).code).toBe(1); // a domain refusal: exit 1, reason on stderr
  });

  it('an invalid campaign file lists every problem on stderr, exits 1 and stores nothing', async () => {
    const { env, file } = setup();
    const r = await campaigns(
      [
        'create',
        '--file',
        file('bad.json', {
          ...campaignFile({ bid_micros: 0, start_date: '2026-13-01' }),
          extra: true,
          title: undefined,
        }),
      ],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('the campaign is invalid (4 problems); nothing was stored');
    expect(r.stderr).toContain('  - title is required');
    expect(r.stderr).toContain('  - unknown field "extra"');
    expect(r.stderr).toContain('  - bid_micros must be a whole number of micros');
    expect(r.stderr).toContain('  - start_date 2026-13-01 is not a calendar day');
    expect((await campaigns(['create', '--file', file('broken.json', '{"advertiser": ')], env)).stderr).toContain(
      'is not valid JSON',
    );
    expect((await campaigns(['create', '--file', join(env.SCOUT_DATA_DIR, 'missing.json')], env)).stderr).toContain(
      'cannot read',
    );
    expect((await campaigns(['list'], env)).stdout).toBe('no campaigns\n');
  });

  it('refuses a landing page on a private address, with the reason, and stores nothing', async () => {
    const { env, file } = setup();
    const r = await campaigns(
      ['create', '--file', file('c.json', campaignFile({ url: 'http://127.0.0.1:8080/admin/v1/campaigns' }))],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the campaign is invalid (1 problem); nothing was stored');
    expect(r.stderr).toMatch(/url must be a public http\(s\) URL; 127\.0\.0\.1 is not a public address/);
    expect((await campaigns(['list'], env)).stdout).toBe('no campaigns\n');
  });

  it("create and update follow the landing page's redirects: one to a loopback address is refused, nothing stored", async () => {
    const { env, file } = setup();
    const refusal = `url ${landing.url('/to-loopback')} redirects to ${trap.url('/admin/v1/campaigns')}, which is refused: url must be a public http(s) URL; 127.0.0.1 is not a public address (loopback 127.0.0.0/8)`;
    const r = await campaigns(
      ['create', '--file', file('c.json', campaignFile({ url: landing.url('/to-loopback') }))],
      env,
    );
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(`scout: the campaign is invalid (1 problem): 1) ${refusal}\n`);
    expect((await campaigns(['list'], env)).stdout).toBe('no campaigns\n');

    // A redirect to a public (here: allowlisted) page is fine.
    const id = (
      await campaigns(['create', '--file', file('ok.json', campaignFile({ url: landing.url('/to-shoes') }))], env)
    ).stdout.trim();
    expect(id).toMatch(/^cmp_/);
    const update = await campaigns(
      ['update', id, '--file', file('u.json', campaignFile({ url: landing.url('/to-loopback'), title: 'Changed' }))],
      env,
    );
    expect(update.code).toBe(1);
    expect(update.stderr).toContain(refusal);
    expect(JSON.parse((await campaigns(['show', id], env)).stdout)).toMatchObject({
      url: landing.url('/to-shoes'),
      title: 'Acme trail running shoes',
    });
    expect(trap.requests).toEqual([]);
  });

  it('a landing page that does not answer is not stored (503 on the API, exit 1): where it leads is unknown', async () => {
    const { env, file } = setup();
    const gone = await startFixtureServer({});
    const url = gone.url('/shoes');
    await gone.close();
    const r = await campaigns(['create', '--file', file('c.json', campaignFile({ url }))], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `could not check where url ${url} leads (${url}: connection refused by 127.0.0.2:${gone.port}); nothing was stored: try again once the landing page answers`,
    );
    expect((await campaigns(['list'], env)).stdout).toBe('no campaigns\n');
  });

  it('report shows impressions, agent reads, clicks, spend and read rate per campaign, --since a day', async () => {
    const { env, file } = setup();
    const id = (await campaigns(['create', '--file', file('c.json', campaignFile())], env)).stdout.trim();
    // Traffic through a server-side sponsored instance on the same data folder.
    const server = createSponsored({
      stores: openSponsoredStore(env.SCOUT_DATA_DIR),
      maxAds: 2,
      recTtlDays: 30,
      publicUrl: 'https://scout.test',
      refreshMs: 0,
      allowCidrs: ['127.0.0.2/32'],
    });
    try {
      const ads = [];
      for (let i = 0; i < 4; i++)
        ads.push(...(await server.stage.select(searchQuery('running shoes'), ctx())).map((p) => p.result));
      await server.resolveClickUrl(new URL(ads[0]?.url as string));
      await server.clicks.follow(ads[1]?.rec_id as string, true);
    } finally {
      await server.close();
    }
    const json = JSON.parse((await campaigns(['report', '--json'], env)).stdout);
    expect(json.campaigns[0]).toMatchObject({
      id,
      impressions: 4,
      agent_reads: 1,
      clicks: 1,
      spend_micros: 100_000,
      read_rate: 0.25,
    });
    const text = (await campaigns(['report'], env)).stdout;
    expect(text).toContain('since the beginning (UTC)');
    expect(text).toContain(`${id}\tactive\tAcme\t4\t1\t1\t0.10\t25.0%\t9.90`);
    expect((await campaigns(['report', '--since', '2999-01-01', '--json'], env)).stdout).toContain('"impressions":0');
    const badSince = await campaigns(['report', '--since', 'yesterday'], env);
    expect(badSince.code).toBe(1);
    expect(badSince.stderr).toContain('since must be a date');
  });

  it('usage errors name what is missing', async () => {
    const { env } = setup();
    for (const [argv, message] of [
      [['create'], '--file'],
      [['pause'], 'campaign id'],
      [['frobnicate'], ''],
      [[], ''],
    ] as [string[], string][]) {
      const r = await campaigns(argv, env);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });

  it('formats micros as currency units', () => {
    expect(formatMicros(1_500_000)).toBe('1.50');
    expect(formatMicros(1)).toBe('0.000001');
    expect(formatMicros(123_456_789)).toBe('123.456789');
  });
});
