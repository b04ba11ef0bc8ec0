/**
 * The usage text of every command, apart from the commands themselves so `--help` answers
 * without loading a command's module (and without touching a store or binding a port).
 */
export interface Usage {
  /** The command line, without "usage: ". */
  synopsis: string;
  /** One line: what it does. */
  about: string;
  /** Further lines shown by its own --help. */
  more?: string;
}

export interface UsageGroup {
  about: string;
  subcommands: Record<string, Usage>;
  /** Shown under the group's and under each subcommand's help. */
  note?: string;
}

export const COMMAND_USAGE: Record<string, Usage | UsageGroup> = {
  serve: {
    synopsis: 'scout serve',
    about: 'start the API (what `npm start` runs); serves until SIGINT or SIGTERM',
    more: 'Settings come from the environment (`scout settings` lists them); PORT and HOST choose where it listens.',
  },
  keys: {
    about: 'manage API keys',
    note: 'Keys live where the servers read them: $SCOUT_DATA_DIR/scout.db (default ./data/scout.db), or PostgreSQL when SCOUT_DATABASE_URL is set.',
    subcommands: {
      create: {
        synopsis: 'scout keys create --name <label> [--json]',
        about: 'create a key and print it once (--json: id, name, key, created_at)',
      },
      list: {
        synopsis: 'scout keys list [--json]',
        about: 'list keys: id, name, dates, status and usage (requests, refusals, last use), never the secrets',
      },
      revoke: {
        synopsis: 'scout keys revoke <id>',
        about: 'revoke a key; every running server refuses it on its next request',
      },
    },
  },
  index: {
    about: 'manage the local index',
    note: [
      'The index lives at $SCOUT_DATA_DIR/index.db (default ./data/index.db), or in PostgreSQL when SCOUT_DATABASE_URL is set.',
      'import, add and crawl take --to opensearch to write to the OpenSearch cluster of SCOUT_OPENSEARCH_URL instead (docs/opensearch.md).',
    ].join('\n'),
    subcommands: {
      import: {
        synopsis: 'scout index import <file.jsonl> [--to local|opensearch]',
        about: 'add or replace documents, one JSON object a line',
        more: [
          '{"url", "title", "content", "published_date"?, "country"?, "language"?}; bad lines are reported and skipped.',
          '--to opensearch: sent in _bulk batches; documents the cluster refuses are reported with their line number.',
        ].join('\n'),
      },
      stats: {
        synopsis: 'scout index stats [--json]',
        about: 'documents, domains, size and date range of the local index',
      },
      list: {
        synopsis: 'scout index list [--domain <host>] [--source import|starter] [--limit N] [--after <url>] [--json]',
        about: 'documents in url order: url, title, source, published date',
        more: "--domain matches subdomains too; --limit 1 to 100000 (default 100); a longer list ends with `more: --after <url>` on stderr, the next page's flag.",
      },
      remove: {
        synopsis: 'scout index remove <url…>',
        about: 'remove documents by url; urls not in the index are named on stderr (exit 1 when none was)',
      },
      add: {
        synopsis: 'scout index add <url…> [--delay-ms N] [--to local|opensearch]',
        about: 'fetch each page (the /v1/fetch pipeline) and index it under its final URL',
        more: '--delay-ms is the pause between requests to one host (default 1000).',
      },
      crawl: {
        synopsis: 'scout index crawl <url> [--max-pages N] [--same-site] [--delay-ms N] [--to local|opensearch]',
        about: 'breadth-first crawl from <url>, honouring robots.txt',
        more: [
          "Indexes at most N pages (default 50); --same-site stays on <url>'s registrable domain;",
          '--delay-ms is the pause between requests to one host (default 1000). See docs/index-crawl.md.',
        ].join('\n'),
      },
      template: {
        synopsis: 'scout index template --to opensearch [--print]',
        about: "put Scout's index template on the cluster and create the index if missing",
        more: 'import, add and crawl --to opensearch do this first themselves; --print only prints the template (JSON), without a cluster.',
      },
    },
  },
  fetch: {
    synopsis: 'scout fetch <url> [--max-chars N] [--json]',
    about: "print a page's main content as markdown (the /v1/fetch pipeline)",
    more: '--max-chars: 500 to 200000 (default 200000); --json: the whole /v1/fetch answer.',
  },
  campaigns: {
    about: 'manage sponsored campaigns',
    note: 'Amounts are in micros (millionths of the currency unit); docs/sponsored.md has the file format.',
    subcommands: {
      create: {
        synopsis: 'scout campaigns create --file <campaign.json|-> [--json]',
        about: 'validate and store a campaign; prints its id (- reads stdin)',
      },
      update: {
        synopsis: 'scout campaigns update <id> --file <campaign.json|->',
        about: "replace a campaign's definition (spend is kept)",
      },
      list: { synopsis: 'scout campaigns list [--json]', about: 'campaigns with bid, budget and status' },
      show: { synopsis: 'scout campaigns show <id>', about: 'one campaign as JSON' },
      pause: { synopsis: 'scout campaigns pause <id>', about: 'stop showing a campaign' },
      resume: { synopsis: 'scout campaigns resume <id>', about: 'show a paused campaign again' },
      delete: { synopsis: 'scout campaigns delete <id>', about: 'delete a campaign' },
      report: {
        synopsis: 'scout campaigns report [--since YYYY-MM-DD] [--json]',
        about: 'impressions, agent reads, clicks, spend and read rate per campaign',
      },
    },
  },
  db: {
    about: 'manage the PostgreSQL schema (SCOUT_DATABASE_URL, SCOUT_DATABASE_SCHEMA)',
    note: 'Servers apply pending migrations at start, under a lock; these commands let a deploy step do it first.',
    subcommands: {
      migrate: { synopsis: 'scout db migrate', about: 'apply pending migrations and print each one applied' },
      status: { synopsis: 'scout db status [--json]', about: 'every migration with when it was applied, or pending' },
    },
  },
  extract: {
    synopsis: 'scout extract --base-url <url> [--content-type <type>] < page.html',
    about: 'HTML on stdin → markdown on stdout (the fetch extractor alone)',
    more: 'Without --content-type the body is sniffed, as for an origin that sent none.',
  },
  settings: { synopsis: 'scout settings', about: 'every environment setting, as a markdown table' },
  providers: {
    about: 'check the search providers of SCOUT_SEARCH_PROVIDERS',
    subcommands: {
      check: {
        synopsis: 'scout providers check [--query <text>] [--json]',
        about: 'one probe query through each provider: ok, blocked, parse failed, unreachable or error, with latency',
        more: 'Exit 0 when every provider answered, 1 otherwise. Each call is made at once, within SCOUT_PROVIDER_TIMEOUT_MS, without the cache.',
      },
    },
  },
  mcp: {
    synopsis: 'scout mcp [--tools <names>]',
    about: 'MCP server on stdin/stdout (web_search, fetch_page) for desktop agent clients',
    more: [
      '--tools: the tools offered, comma-separated names or all (docs/mcp.md lists them); default',
      'SCOUT_MCP_TOOLS (web_search,fetch_page). An unknown name stops it at once (exit 1).',
      'SCOUT_API_KEY (required): the key every tool call is charged to (rate limit, monthly budget).',
      "SCOUT_URL set: the tools call that running Scout's HTTP API. Unset: Scout runs in this process",
      'on SCOUT_DATA_DIR (the key must be in its store). stdout carries protocol messages only; logs go',
      'to stderr. Serves until stdin closes. Client configuration: docs/mcp.md.',
    ].join('\n'),
  },
};

export const isGroup = (u: Usage | UsageGroup): u is UsageGroup => 'subcommands' in u;
