import { describe, expect, it } from 'vitest';
import { markdownSections, slugify } from '../../src/index/markdown-sections.ts';
import { defined } from '../helpers/defined.ts';

describe('markdownSections', () => {
  it('splits on ## headings, keeps the lead text and strips Markdown', () => {
    const md = [
      '# Scout **API**',
      '',
      'Intro with a [link](https://example.com) and `code`.',
      '',
      '## Getting started',
      '',
      '- install it',
      '- run **it**',
      '',
      '```sh',
      '## not a heading',
      'npm start',
      '```',
      '',
      '## Getting started',
      'Again.',
      '## Empty',
      '',
      '### Deeper: still *here*',
      'Text.',
    ].join('\n');
    const sections = markdownSections(md, 'fallback');
    expect(sections.map((s) => [s.title, s.anchor])).toEqual([
      ['Scout API', undefined],
      ['Scout API — Getting started', 'getting-started'],
      ['Scout API — Getting started', 'getting-started-1'],
      ['Scout API — Empty', 'empty'],
    ]);
    expect(sections[0]?.text).toBe('Intro with a link and code.');
    const started = defined(sections[1], 'the getting started section');
    expect(started.text).toContain('install it');
    // Code keeps its characters, lines joined as snippets show them.
    expect(started.text).toContain('## not a heading; npm start');
    expect(started.text).not.toMatch(/\*\*|```/);
    expect(sections[3]?.text).toContain('Deeper: still here');
  });

  // Two markdown-to-text implementations once disagreed: the library one dropped `<key>`.
  it('keeps angle brackets inside code spans (`<key>`, `<label>`)', () => {
    const md =
      '# Keys\n\nSend `Authorization: Bearer <key>`; create one with `scout keys create --name <label>`.\n\n## `<id>` usage\n\nRevoke with `keys revoke <id>` and a <b>tag</b>.';
    const sections = markdownSections(md, 'keys');
    expect(sections[0]?.text).toBe(
      'Send Authorization: Bearer <key>; create one with scout keys create --name <label>.',
    );
    expect(sections[1]?.title).toBe('Keys — <id> usage');
    expect(sections[1]?.text).toBe('Revoke with keys revoke <id> and a tag.');
  });

  // Issue 23: starter-corpus snippets showed `**`, backticks and `### ` from docs/providers.md.
  it('strips markup around a code block opened inside a list, and inline markup across line breaks', () => {
    const md = [
      '# Providers',
      '',
      '## SearXNG',
      '### SearXNG (`searxng`)',
      '- `GET <instance>/search?format=json` (`SCOUT_SEARXNG_URL`, required: your',
      "  instance's `/search` URL).",
      '- **The instance must enable JSON**: in its `settings.yml`,',
      '  ```yaml',
      '  search:',
      '    formats: [json]',
      '  ```',
      '  Without it SearXNG answers 403 (`HTTP 403 (is json enabled',
      '  in search.formats?)`), see [the',
      '  settings](https://docs.searxng.org/admin/settings.html).',
    ].join('\n');
    const section = defined(markdownSections(md, 'providers')[0], 'a section');
    expect(section.text).not.toMatch(/\*\*|`|^#|\]\(/m);
    expect(section.text).toContain(
      "SearXNG (searxng); GET <instance>/search?format=json (SCOUT_SEARXNG_URL, required: your instance's /search URL).",
    );
    expect(section.text).toContain('The instance must enable JSON: in its settings.yml,');
    expect(section.text).toContain('search:; formats: [json]');
    expect(section.text).toContain(
      'Without it SearXNG answers 403 (HTTP 403 (is json enabled in search.formats?)), see the settings.',
    );
  });

  it('uses the fallback title without a # heading and skips empty sections', () => {
    expect(markdownSections('## Only heading\n\n## Second\nbody', 'notes')).toEqual([
      { title: 'notes — Second', anchor: 'second', text: 'body' },
    ]);
  });

  it('makes GitHub-style anchors', () => {
    expect(slugify('Rate limits & quotas (v1)')).toBe('rate-limits--quotas-v1');
    expect(slugify('`SCOUT_DATA_DIR` setting')).toBe('scout_data_dir-setting');
  });
});
