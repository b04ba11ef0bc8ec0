/*
 * Scout's operator dashboard (/admin): plain browser JavaScript, served as is (no build
 * step). It reads GET /admin/v1/overview with the admin token and draws it into the panels
 * of index.html; actions (revoke a key, pause or resume a campaign) are POSTs to the admin API.
 *
 * The page runs under a strict Content-Security-Policy (no inline script or style), so all
 * styling is in dashboard.css and classes. Every string from the API is written with
 * textContent or an attribute, never parsed as HTML. The token lives in sessionStorage
 * and is sent only in the Authorization header.
 */

(() => {
  const TOKEN_KEY = 'scout.admin.token';
  const REFRESH_MS = 15_000;
  const OVERVIEW = '/admin/v1/overview';
  const WINDOW_SECONDS = { hour: 3600, day: 86_400 };
  const PLOT_HEIGHT = 220;

  const state = {
    token: null,
    data: null,
    window: 'hour',
    timer: null,
    /** Each refresh gets a number; an answer older than the newest asked for is dropped. */
    seq: 0,
    /** Key ids whose Revoke was clicked once: a second button confirms (kept across refreshes). */
    confirming: new Set(),
    plots: { traffic: null, latency: null },
    /** Bucket seconds the plots were made for: another window makes them anew (new axis). */
    plotStep: null,
    resize: null,
  };

  /* ---------- DOM helpers ---------- */

  const $ = (selector, root = document) => root.querySelector(selector);
  const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];
  const field = (name, root = document) => $(`[data-field="${name}"]`, root);

  /** Creates an element; `props` may hold className, text, and dataset/attrs objects. */
  function el(tag, props = {}, children = []) {
    const e = document.createElement(tag);
    if (props.className) e.className = props.className;
    if (props.text !== undefined) e.textContent = props.text;
    for (const [k, v] of Object.entries(props.dataset ?? {})) e.dataset[k] = String(v);
    for (const [k, v] of Object.entries(props.attrs ?? {})) e.setAttribute(k, String(v));
    for (const c of children) e.append(c);
    return e;
  }

  /** Writes a shown text and, for numbers, the raw value in data-value (what tests and scripts read). */
  function show(target, text, value) {
    target.textContent = text;
    if (value === undefined || value === null) delete target.dataset.value;
    else target.dataset.value = String(value);
  }
  const setField = (name, text, value, root) => show(field(name, root), text, value);

  /** A table cell holding a number: right-aligned, data-field for its column, raw value kept. */
  function numCell(name, n, text = fmtInt(n)) {
    const td = el('td', { className: 'num', dataset: { field: name } });
    show(td, text, n);
    return td;
  }

  function timeEl(iso, name) {
    const t = el('time', name ? { dataset: { field: name } } : {});
    if (iso) {
      t.dateTime = iso;
      t.textContent = fmtDateTime(iso);
      t.title = iso;
    } else {
      t.textContent = '—';
    }
    return t;
  }

  function replaceRows(tbody, rows, columns, emptyText) {
    tbody.replaceChildren(...rows);
    if (rows.length === 0) {
      const td = el('td', { className: 'empty', text: emptyText, attrs: { colspan: columns } });
      tbody.append(el('tr', {}, [td]));
    }
  }

  /* ---------- formatting ---------- */

  const pad = (n) => String(n).padStart(2, '0');
  const fmtInt = (n) => (n === null || n === undefined ? '—' : Number(n).toLocaleString('en-US'));
  /** Whole milliseconds, but one decimal below 10 ms (a local index answers in well under one). */
  const fmtMs = (n) =>
    n === null || n === undefined ? '—' : n < 10 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US');
  const fmtMoney = (micros) =>
    (micros / 1e6).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const fmtPercent = (ratio) => `${(ratio * 100).toFixed(1)}%`;
  /**
   * Times are the browser's local time on a 24-hour clock, always with their zone as an
   * offset (`UTC`, `UTC+05:30`, `UTC-04:00`): an operator comparing the page with logs (UTC)
   * or a colleague elsewhere must not have to guess. The title of a <time> holds the ISO form.
   */
  function fmtZone(d) {
    const offset = -d.getTimezoneOffset();
    if (offset === 0) return 'UTC';
    const abs = Math.abs(offset);
    return `UTC${offset > 0 ? '+' : '-'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  }
  const fmtHm = (d) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const fmtClock = (d) => `${fmtHm(d)}:${pad(d.getSeconds())} ${fmtZone(d)}`;
  const fmtDay = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const fmtDateTime = (iso) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? String(iso) : `${fmtDay(d)} ${fmtClock(d)}`;
  };
  /**
   * The plots' time axis, 24-hour like the rest of the page (uPlot's default is a 12-hour
   * clock): `HH:MM`, with the date under the first tick and under each tick of a new day.
   */
  function axisTimes(_u, splits) {
    let day = '';
    return splits.map((s) => {
      const d = new Date(s * 1000);
      const today = fmtDay(d);
      const label = today === day ? fmtHm(d) : `${fmtHm(d)}\n${today}`;
      day = today;
      return label;
    });
  }
  /** The legend's time (the bucket's start): date, clock and zone. */
  const legendTime = (_u, v) => (v === null || v === undefined ? '—' : fmtDateTime(v * 1000));

  function fmtBytes(n) {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let v = n;
    let i = 0;
    while (v >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return i === 0 ? `${v} B` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
  }

  const humanize = (name) => name.replaceAll('_', ' ');

  /* ---------- the API ---------- */

  class ApiError extends Error {
    constructor(status, message) {
      super(message);
      this.status = status;
    }
  }

  async function api(method, path) {
    let res;
    try {
      res = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${state.token}`, accept: 'application/json' },
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch (e) {
      throw new ApiError(0, `Scout did not answer (${e.message})`);
    }
    let body = null;
    try {
      body = await res.json();
    } catch {
      // Not JSON (a proxy's error page): the status says enough.
    }
    if (!res.ok) {
      const message = body?.error && typeof body.error.message === 'string' ? body.error.message : `HTTP ${res.status}`;
      throw new ApiError(res.status, message);
    }
    return body;
  }

  /* ---------- signing in and out ---------- */

  function setSignedIn(on) {
    $('[data-panel="login"]').hidden = on;
    for (const e of $$('[data-signed-in]')) e.hidden = !on;
  }

  function showLoginError(message) {
    const p = field('login-error');
    p.textContent = message;
    p.hidden = message === '';
  }

  async function signIn(token) {
    state.token = token;
    let data;
    try {
      data = await api('GET', OVERVIEW);
    } catch (e) {
      state.token = null;
      // Only a refused token is forgotten: Scout being unreachable says nothing about it.
      if (e.status === 401) sessionStorage.removeItem(TOKEN_KEY);
      setSignedIn(false);
      showLoginError(e.message);
      $('#admin-token').focus();
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, token);
    showLoginError('');
    $('#admin-token').value = '';
    setSignedIn(true);
    accept(data);
    clearInterval(state.timer);
    state.timer = setInterval(refresh, REFRESH_MS);
  }

  /** Forgets the token and everything shown; `message` explains why when the server sent us away. */
  function signOut(message = '') {
    clearInterval(state.timer);
    state.timer = null;
    state.seq++;
    state.token = null;
    state.data = null;
    state.confirming.clear();
    sessionStorage.removeItem(TOKEN_KEY);
    destroyPlots();
    setSignedIn(false);
    showBanner('refresh-error', '');
    showBanner('action-error', '');
    showLoginError(message);
  }

  /* ---------- refreshing ---------- */

  function showBanner(name, message) {
    const b = field(name);
    b.textContent = message;
    b.hidden = message === '';
  }

  function accept(data) {
    state.data = data;
    state.updatedAt = new Date();
    // data-value: the snapshot's own time, so a script can tell one refresh from the next.
    setField('updated', `updated ${fmtClock(state.updatedAt)}`, data.generated_at);
    showBanner('refresh-error', '');
    render();
  }

  async function refresh() {
    if (state.token === null) return;
    const seq = ++state.seq;
    try {
      const data = await api('GET', OVERVIEW);
      if (seq === state.seq) accept(data);
    } catch (e) {
      if (seq !== state.seq) return;
      if (e.status === 401) return signOut(e.message);
      const since = state.updatedAt ? ` Showing the data of ${fmtClock(state.updatedAt)}.` : '';
      showBanner(
        'refresh-error',
        `Refresh failed at ${fmtClock(new Date())}: ${e.message.replace(/\.$/, '')}.${since}`,
      );
    }
  }

  /** Runs one admin action, then refreshes; a failure is shown until the next action. */
  async function act(button, what, path) {
    showBanner('action-error', '');
    button.disabled = true;
    try {
      await api('POST', path);
    } catch (e) {
      if (e.status === 401) return signOut(e.message);
      showBanner('action-error', `${what} failed: ${e.message}`);
    } finally {
      button.disabled = false;
    }
    await refresh();
  }

  /* ---------- rendering ---------- */

  function render() {
    const d = state.data;
    if (!d) return;
    // A refresh rebuilds the tables: keep the keyboard focus on the same button.
    const focused = document.activeElement;
    const refocus = focused?.dataset?.id
      ? `[data-action="${focused.dataset.action}"][data-id="${CSS.escape(focused.dataset.id)}"]`
      : null;

    const started = field('started_at');
    started.dateTime = d.started_at;
    started.textContent = fmtDateTime(d.started_at);
    started.title = d.started_at;
    setField('storage', d.storage);
    renderBudget(d.budget);
    renderTraffic(d.traffic);
    renderKeys(d.keys, d.anonymous);
    renderProviders(d.providers);
    renderFetch(d.fetch);
    renderIndex(d.index);
    renderCampaigns(d.campaigns);

    if (refocus) {
      const again = $(refocus);
      if (again) again.focus();
    }
  }

  function renderBudget(b) {
    const panel = $('[data-panel="budget"]');
    field('budget-state', panel).hidden = b !== null;
    $('[data-part="budget-details"]', panel).hidden = b === null;
    if (b === null) {
      setField('budget-period', '', undefined, panel);
      return;
    }
    setField('budget-period', `(${b.period})`, undefined, panel);
    setField('budget-used', fmtInt(b.used), b.used, panel);
    setField('budget-total', fmtInt(b.total), b.total, panel);
    setField('budget-left', fmtInt(b.left), b.left, panel);
    setField('budget-projected', fmtInt(b.projected_used), b.projected_used, panel);
    const exhaustion = field('budget-exhaustion', panel);
    if (b.projected_exhausted_at === null) show(exhaustion, 'lasts the month');
    else show(exhaustion, `about ${fmtDateTime(b.projected_exhausted_at)}`, b.projected_exhausted_at);
    exhaustion.classList.toggle('warn', b.projected_exhausted_at !== null);
    const resets = field('budget-resets', panel);
    resets.dateTime = b.resets_at;
    resets.textContent = fmtDateTime(b.resets_at);
    const bar = field('budget-bar', panel);
    bar.max = Math.max(1, b.total);
    bar.value = Math.min(b.used, b.total);
    bar.textContent = `${b.total === 0 ? 0 : Math.round((b.used / b.total) * 100)}%`;
    bar.classList.toggle('warn', b.projected_exhausted_at !== null);
  }

  const CLASSES = [
    { key: 'ok', label: 'OK', colour: '#2e7d32' },
    { key: 'client_error', label: '4xx', colour: '#ef6c00' },
    { key: 'rate_limited', label: '429', colour: '#6a1b9a' },
    { key: 'server_error', label: '5xx', colour: '#c62828' },
  ];

  /**
   * Latency is drawn per kind of request: a fetch takes seconds where a search takes
   * milliseconds, and a crawl up to minutes.
   */
  const KINDS = [
    { key: 'search', label: 'search', colour: '#1565c0' },
    { key: 'fetch', label: 'fetch', colour: '#ef6c00' },
    { key: 'mcp', label: 'MCP', colour: '#6a1b9a' },
    { key: 'map', label: 'map', colour: '#2e7d32' },
    { key: 'crawl', label: 'crawl', colour: '#ad1457' },
  ];

  /**
   * The chosen window's buckets on a full time axis: one point per bucket from the window's
   * start to the bucket holding generated_at, missing ones 0 (counts) or null (latency), so
   * the x axis shows the whole window whatever the server sent.
   */
  function series(traffic, generatedAt) {
    const win = traffic[state.window];
    const step = win.bucket_seconds;
    const byStart = new Map(win.buckets.map((b) => [Math.floor(Date.parse(b.start) / 1000), b]));
    const last = Math.floor(Date.parse(generatedAt) / 1000 / step) * step;
    const count = Math.round(WINDOW_SECONDS[state.window] / step);
    const xs = [];
    const counts = CLASSES.map(() => []);
    const latency = KINDS.flatMap(() => [[], []]);
    const totals = { ok: 0, client_error: 0, rate_limited: 0, server_error: 0 };
    for (let i = count - 1; i >= 0; i--) {
      const t = last - i * step;
      const b = byStart.get(t);
      xs.push(t);
      CLASSES.forEach((c, j) => {
        counts[j].push(b ? b[c.key] : 0);
      });
      KINDS.forEach((k, j) => {
        const l = b?.latency ? b.latency[k.key] : null;
        latency[2 * j].push(l ? l.p50_ms : null);
        latency[2 * j + 1].push(l ? l.p95_ms : null);
      });
    }
    // Totals from what the server sent, so a bucket that does not line up still counts.
    for (const b of win.buckets) for (const c of CLASSES) totals[c.key] += b[c.key];
    return { step, xs, counts, latency, totals };
  }

  function renderTraffic(traffic) {
    const panel = $('[data-panel="traffic"]');
    const s = series(traffic, state.data.generated_at);
    let all = 0;
    for (const c of CLASSES) {
      setField(`traffic-${c.key}`, fmtInt(s.totals[c.key]), s.totals[c.key], panel);
      all += s.totals[c.key];
    }
    setField('traffic-total', fmtInt(all), all, panel);
    field('traffic-plot-title', panel).textContent =
      `Requests by outcome, per ${s.step === 60 ? 'minute' : s.step === 3600 ? 'hour' : `${s.step} s`}`;
    drawPlots(s);
  }

  function destroyPlots() {
    for (const name of ['traffic', 'latency']) {
      if (state.plots[name]) state.plots[name].destroy();
      state.plots[name] = null;
    }
    if (state.resize) state.resize.disconnect();
    state.resize = null;
  }

  function drawPlots(s) {
    const trafficBox = $('[data-plot="traffic"]');
    const latencyBox = $('[data-plot="latency"]');
    if (typeof uPlot === 'undefined') {
      trafficBox.textContent = 'Plots unavailable: the plot library did not load.';
      latencyBox.textContent = '';
      return;
    }
    const trafficData = [s.xs, ...s.counts];
    const latencyData = [s.xs, ...s.latency];
    if (state.plots.traffic && state.plotStep === s.step) {
      state.plots.traffic.setData(trafficData);
      state.plots.latency.setData(latencyData);
      return;
    }
    destroyPlots();
    state.plotStep = s.step;
    const width = (box) => Math.max(200, box.clientWidth);
    const count = (_u, v) => (v === null || v === undefined ? '—' : fmtInt(v));
    const ms = (_u, v) => (v === null || v === undefined ? '—' : `${fmtMs(v)} ms`);
    state.plots.traffic = new uPlot(
      {
        width: width(trafficBox),
        height: PLOT_HEIGHT,
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [
          { label: 'Time', value: legendTime },
          ...CLASSES.map((c) => ({ label: c.label, stroke: c.colour, width: 2, value: count })),
        ],
        axes: [{ values: axisTimes, size: 50 }, { size: 50 }],
      },
      trafficData,
      trafficBox,
    );
    state.plots.latency = new uPlot(
      {
        width: width(latencyBox),
        height: PLOT_HEIGHT,
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max ?? 1)] } },
        series: [
          { label: 'Time', value: legendTime },
          // p50 solid, p95 dashed, one colour a kind. Points too: a minute with traffic
          // between quiet ones has no line to either side.
          ...KINDS.flatMap((k) => [
            {
              label: `${k.label} p50`,
              stroke: k.colour,
              width: 2,
              value: ms,
              points: { show: true, size: 7, fill: k.colour },
            },
            {
              label: `${k.label} p95`,
              stroke: k.colour,
              width: 2,
              dash: [6, 4],
              value: ms,
              points: { show: true, size: 5, fill: '#fff' },
            },
          ]),
        ],
        axes: [{ values: axisTimes, size: 50 }, { size: 50 }],
      },
      latencyData,
      latencyBox,
    );
    // The plots follow their boxes' width (a resized window, a narrower layout).
    state.resize = new ResizeObserver(() => {
      for (const [name, box] of [
        ['traffic', trafficBox],
        ['latency', latencyBox],
      ]) {
        const u = state.plots[name];
        if (u && Math.abs(u.width - width(box)) > 1) u.setSize({ width: width(box), height: PLOT_HEIGHT });
      }
    });
    state.resize.observe(trafficBox);
    state.resize.observe(latencyBox);
  }

  function keyStatus(k) {
    const td = el('td', { dataset: { field: 'status' } });
    const revoked = k.revoked_at !== null;
    td.append(
      el('span', { className: `badge ${revoked ? 'badge-bad' : 'badge-good'}`, text: revoked ? 'revoked' : 'active' }),
    );
    td.dataset.value = revoked ? 'revoked' : 'active';
    if (revoked) {
      td.append(' ', timeEl(k.revoked_at));
    }
    return td;
  }

  function keyActions(k) {
    const td = el('td', { className: 'actions' });
    if (k.revoked_at !== null) return td;
    if (!state.confirming.has(k.id)) {
      const revoke = el('button', {
        text: 'Revoke',
        dataset: { action: 'revoke', id: k.id },
        attrs: { type: 'button', 'aria-label': `Revoke key ${k.name}` },
      });
      td.append(revoke);
      return td;
    }
    td.append(
      el('button', {
        className: 'danger',
        text: 'Confirm revoke',
        dataset: { action: 'confirm-revoke', id: k.id },
        attrs: { type: 'button', 'aria-label': `Confirm: revoke key ${k.name} (agents using it get 401)` },
      }),
      ' ',
      el('button', { text: 'Cancel', dataset: { action: 'cancel-revoke', id: k.id }, attrs: { type: 'button' } }),
    );
    return td;
  }

  /** The anonymous tier's requests: one row for every keyless client together, nothing to revoke. */
  function anonymousRow(a) {
    return el('tr', { dataset: { row: 'anonymous' } }, [
      el('th', { attrs: { scope: 'row' }, dataset: { field: 'name' }, text: 'Keyless clients (anonymous tier)' }),
      el('td', { className: 'mono', dataset: { field: 'id' }, text: 'anonymous' }),
      el('td', { dataset: { field: 'created' } }, [timeEl(null)]),
      numCell('requests', a.requests),
      numCell('refusals', a.refusals),
      el('td', { dataset: { field: 'last-used' } }, [timeEl(a.last_used_at)]),
      el('td', { dataset: { field: 'status', value: 'anonymous' }, text: 'all addresses' }),
      el('td'),
    ]);
  }

  function renderKeys(keys, anonymous) {
    const tbody = $('[data-table="keys"] tbody');
    for (const id of state.confirming)
      if (!keys.some((k) => k.id === id && k.revoked_at === null)) state.confirming.delete(id);
    const rows = keys.map((k) =>
      el('tr', { dataset: { row: k.id }, className: k.revoked_at !== null ? 'revoked' : '' }, [
        el('th', { attrs: { scope: 'row' }, dataset: { field: 'name' }, text: k.name }),
        el('td', { className: 'mono', dataset: { field: 'id' }, text: k.id }),
        el('td', { dataset: { field: 'created' } }, [timeEl(k.created_at)]),
        numCell('requests', k.requests),
        numCell('refusals', k.refusals),
        el('td', { dataset: { field: 'last-used' } }, [timeEl(k.last_used_at)]),
        keyStatus(k),
        keyActions(k),
      ]),
    );
    if (anonymous) rows.push(anonymousRow(anonymous));
    replaceRows(tbody, rows, 8, 'No API keys.');
  }

  function renderProviders(providers) {
    const tbody = $('[data-table="providers"] tbody');
    const rows = providers.map((p) => {
      const badge = el('span', { className: `badge breaker-${p.breaker}`, text: humanize(p.breaker) });
      const breaker = el('td', { dataset: { field: 'breaker', value: p.breaker } }, [badge]);
      const healthBadge = el('span', {
        className: `badge health-${p.health}`,
        text: humanize(p.health),
        attrs: p.last_error ? { title: p.last_error } : {},
      });
      const health = el('td', { dataset: { field: 'health', value: p.health } }, [healthBadge]);
      return el('tr', { dataset: { row: p.name } }, [
        el('th', { attrs: { scope: 'row' }, dataset: { field: 'name' }, text: p.name }),
        health,
        breaker,
        numCell('requests', p.requests),
        numCell('errors', p.errors),
        numCell('timeouts', p.timeouts),
        numCell('p50', p.p50_ms, fmtMs(p.p50_ms)),
        numCell('p95', p.p95_ms, fmtMs(p.p95_ms)),
      ]);
    });
    replaceRows(tbody, rows, 8, 'No search provider configured.');
  }

  function renderFetch(f) {
    const panel = $('[data-panel="fetch"]');
    const outcomes = Object.entries(f.outcomes);
    let total = 0;
    const rows = outcomes.map(([outcome, n]) => {
      total += n;
      return el('tr', { dataset: { row: outcome }, className: n === 0 ? 'zero' : '' }, [
        el('th', { attrs: { scope: 'row' }, text: humanize(outcome) }),
        numCell('count', n),
      ]);
    });
    replaceRows($('[data-table="outcomes"] tbody', panel), rows, 2, 'No fetches.');
    setField('fetch-total', fmtInt(total), total, panel);

    const domains = f.refused_domains.map((r) => {
      const parts = Object.entries(r.outcomes)
        .sort((a, b) => b[1] - a[1])
        .map(([o, n]) => `${humanize(o)} ${fmtInt(n)}`);
      return el('tr', { dataset: { row: r.domain } }, [
        el('th', { attrs: { scope: 'row' }, className: 'mono', dataset: { field: 'domain' }, text: r.domain }),
        numCell('count', r.count),
        el('td', { dataset: { field: 'outcomes' }, text: parts.join(', ') }),
        el('td', { dataset: { field: 'last' } }, [timeEl(r.last_at)]),
      ]);
    });
    replaceRows(
      $('[data-table="refused-domains"] tbody', panel),
      domains,
      4,
      'No host refused or blocked since start.',
    );
  }

  function renderIndex(ix) {
    const panel = $('[data-panel="index"]');
    setField('index-documents', fmtInt(ix.documents), ix.documents, panel);
    setField('index-domains', fmtInt(ix.domains), ix.domains, panel);
    setField('index-bytes', fmtBytes(ix.bytes), ix.bytes, panel);
    setField('index-text-bytes', fmtBytes(ix.text_bytes), ix.text_bytes, panel);
    setField('index-state', humanize(ix.state), ix.state, panel);
    const last = field('index-last-import', panel);
    last.replaceChildren(ix.last_import_at === null ? 'never' : timeEl(ix.last_import_at));
  }

  function renderCampaigns(campaigns) {
    const tbody = $('[data-table="campaigns"] tbody');
    const rows = campaigns.map((c) => {
      const paused = c.status === 'paused';
      const status = el('td', { dataset: { field: 'status', value: c.status } }, [
        el('span', { className: `badge ${paused ? 'badge-warn' : 'badge-good'}`, text: c.status }),
      ]);
      const action = paused ? 'resume' : 'pause';
      const button = el('button', {
        text: paused ? 'Resume' : 'Pause',
        dataset: { action, id: c.id },
        attrs: { type: 'button', 'aria-label': `${paused ? 'Resume' : 'Pause'} campaign ${c.title}` },
      });
      return el('tr', { dataset: { row: c.id } }, [
        el('th', { attrs: { scope: 'row' }, dataset: { field: 'advertiser' }, text: c.advertiser }),
        el('td', { dataset: { field: 'title' }, text: c.title }),
        status,
        numCell('impressions', c.impressions),
        numCell('reads', c.agent_reads),
        numCell('clicks', c.clicks),
        numCell('read-rate', c.read_rate, fmtPercent(c.read_rate)),
        numCell('spend', c.spend_micros, fmtMoney(c.spend_micros)),
        numCell('remaining', c.remaining_micros, fmtMoney(c.remaining_micros)),
        el('td', { className: 'actions' }, [button]),
      ]);
    });
    replaceRows(tbody, rows, 10, 'No campaigns.');
  }

  /* ---------- events ---------- */

  function onClick(event) {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const { action, id } = button.dataset;
    switch (action) {
      case 'sign-out':
        return signOut();
      case 'refresh':
        return refresh();
      case 'revoke':
        state.confirming.add(id);
        render();
        // The confirm button replaced this one: keep the keyboard where the operator is.
        $(`[data-action="confirm-revoke"][data-id="${CSS.escape(id)}"]`)?.focus();
        return;
      case 'cancel-revoke':
        state.confirming.delete(id);
        return render();
      case 'confirm-revoke':
        state.confirming.delete(id);
        return act(button, 'Revoking the key', `/admin/v1/keys/${encodeURIComponent(id)}/revoke`);
      case 'pause':
      case 'resume':
        return act(
          button,
          action === 'pause' ? 'Pausing the campaign' : 'Resuming the campaign',
          `/admin/v1/campaigns/${encodeURIComponent(id)}/${action}`,
        );
    }
  }

  function start() {
    document.addEventListener('click', onClick);
    $('[data-form="login"]').addEventListener('submit', (event) => {
      event.preventDefault();
      const token = $('#admin-token').value.trim();
      if (token !== '') signIn(token);
    });
    const select = field('traffic-window');
    select.value = state.window;
    select.addEventListener('change', () => {
      state.window = select.value;
      if (state.data) renderTraffic(state.data.traffic);
    });
    const saved = sessionStorage.getItem(TOKEN_KEY);
    if (saved) signIn(saved);
    else setSignedIn(false);
  }

  start();
})();
