/**
 * Question fixtures for POST /v1/extract's `query`: pages of several paragraphs on one
 * subject, each paragraph sharing words with the others, one of them holding the answer to
 * the question. The passage that holds `answer` must come back.
 */
export interface QuestionPage {
  path: string;
  title: string;
  paragraphs: string[];
  question: string;
  /** A sentence of one paragraph: the answer. */
  answer: string;
}

export const QUESTION_PAGES: QuestionPage[] = [
  {
    path: '/q/pooler',
    title: 'Connection pooling with PgBouncer',
    question: 'What is the default port PgBouncer listens on?',
    answer: 'By default PgBouncer listens on port 6432, one above the PostgreSQL default.',
    paragraphs: [
      'PgBouncer is a lightweight connection pooler for PostgreSQL. It keeps a pool of server connections open and hands them to clients as they need them, which saves the cost of a new backend process for every short-lived client connection.',
      'Three pooling modes exist. Session pooling gives a client a server connection for as long as it stays connected. Transaction pooling returns the server connection to the pool when a transaction ends. Statement pooling is the most aggressive and forbids multi-statement transactions.',
      'The configuration file is usually called pgbouncer.ini. It lists the databases PgBouncer serves, the users allowed to connect, and limits such as max_client_conn and default_pool_size, which bound how many clients and server connections exist at once.',
      'Clients connect to PgBouncer exactly as they would connect to PostgreSQL. By default PgBouncer listens on port 6432, one above the PostgreSQL default. The listen_addr and listen_port settings change the address and port it listens on.',
      'An admin console is reachable through the special pgbouncer database. Commands such as SHOW POOLS, SHOW CLIENTS and RELOAD let an operator inspect pools, see waiting clients and reload the configuration without a restart.',
    ],
  },
  {
    path: '/q/volcano',
    title: 'Mount Etna',
    question: 'How tall is Mount Etna?',
    answer: 'Its summit stands about 3,357 metres tall, though the height changes with every eruption.',
    paragraphs: [
      'Mount Etna is an active stratovolcano on the east coast of Sicily, between the cities of Messina and Catania. It is the highest active volcano in Europe outside the Caucasus and one of the most active volcanoes in the world.',
      'Eruptions of Etna have been recorded for about 2,700 years. The eruption of 1669 destroyed several villages and reached the walls of Catania, and lava flows in the twentieth century threatened towns on its slopes more than once.',
      'Its summit stands about 3,357 metres tall, though the height changes with every eruption. The mountain covers an area of roughly 1,190 square kilometres, with a basal circumference of about 140 kilometres.',
      'The fertile volcanic soils support extensive agriculture, with vineyards and orchards spread across the lower slopes of the mountain. Etna wines are made from grapes such as Nerello Mascalese grown on terraces of old lava.',
      'In 2013 Mount Etna was added to the list of UNESCO World Heritage Sites. The volcano is closely watched by the Istituto Nazionale di Geofisica e Vulcanologia, which runs a network of seismometers and cameras around it.',
    ],
  },
  {
    path: '/q/bread',
    title: 'Sourdough baking',
    question: 'At what temperature should sourdough bread be baked?',
    answer:
      'Bake the loaf at an oven temperature of 250 °C, in a preheated Dutch oven, for twenty minutes with the lid on.',
    paragraphs: [
      'A sourdough starter is a culture of wild yeast and lactic acid bacteria kept alive with regular feedings of flour and water. A mature starter doubles in size within a few hours of feeding and smells pleasantly sour.',
      'Mix the flour and water first and let them rest for an hour. This rest, called the autolyse, lets the flour absorb the water and gluten begin to form before the starter and salt are added to the dough.',
      'Bulk fermentation takes four to six hours at room temperature. During the first two hours give the dough a set of stretches and folds every thirty minutes to build strength without kneading.',
      'Bake the loaf at an oven temperature of 250 °C, in a preheated Dutch oven, for twenty minutes with the lid on. Then remove the lid, lower the oven to 230 °C and bake until the crust is deep brown, about another twenty minutes.',
      'Let the bread cool on a rack for at least an hour before cutting it. The crumb keeps setting as it cools, and a loaf cut while hot turns gummy inside.',
    ],
  },
  {
    path: '/q/http',
    title: 'HTTP status codes',
    question: 'Which status code means too many requests?',
    answer:
      'The status code 429 Too Many Requests tells a client that it sent too many requests in a given amount of time.',
    paragraphs: [
      'HTTP status codes are three-digit numbers a server sends with every response. The first digit gives the class: 1xx informational, 2xx success, 3xx redirection, 4xx client error and 5xx server error.',
      'The code 200 OK is the usual answer to a successful request. 201 Created says a new resource was made, and 204 No Content says the request succeeded but the response has no body.',
      'Redirects use 301 and 308 for permanent moves and 302, 303 and 307 for temporary ones. The new address is in the Location header, and clients are expected to follow it.',
      'The status code 429 Too Many Requests tells a client that it sent too many requests in a given amount of time. Servers often add a Retry-After header saying how many seconds to wait before trying again.',
      'Server errors start with 5. The code 500 is a generic server error, 502 Bad Gateway comes from a proxy whose upstream failed, and 503 Service Unavailable means the server is overloaded or down for maintenance.',
    ],
  },
  {
    path: '/q/bees',
    title: 'Honey bees',
    question: 'How long does a worker bee live in summer?',
    answer: 'In summer a worker bee lives for only about five to six weeks, worn out by foraging.',
    paragraphs: [
      'A honey bee colony has three kinds of members: one queen, thousands of female workers and, in summer, a few hundred male drones. The queen lays all the eggs, up to two thousand a day at the height of the season.',
      'Worker bees change tasks as they age. Young workers clean cells and feed larvae, middle-aged ones build comb and guard the entrance, and the oldest leave the hive to forage for nectar, pollen and water.',
      'In summer a worker bee lives for only about five to six weeks, worn out by foraging. Workers born in autumn live for several months, clustering through the winter to keep the queen warm.',
      'Bees communicate the direction and distance of food with the waggle dance. The angle of the dance relative to vertical gives the direction relative to the sun, and the length of the waggle run gives the distance.',
      'Honey is made from nectar that workers collect and store in wax cells. They add enzymes and fan it with their wings until most of the water has evaporated, then cap the cell with wax.',
    ],
  },
  {
    path: '/q/git',
    title: 'Undoing things in Git',
    question: 'How do I undo the last commit but keep my changes?',
    answer: 'To undo the last commit but keep its changes in the working tree, run git reset --soft HEAD~1.',
    paragraphs: [
      'Git keeps every commit, so most mistakes can be undone. Before undoing anything, run git status and git log to see where the branch points and which files have changed.',
      'To change the message of the last commit, run git commit --amend. Amending rewrites the commit, so do it only for commits that have not been pushed to a shared branch.',
      'To undo the last commit but keep its changes in the working tree, run git reset --soft HEAD~1. The changes stay staged, ready to be committed again, while a hard reset would discard them.',
      'To undo a commit that others already have, use git revert with the commit hash. Revert makes a new commit that reverses the changes, leaving the history intact for everyone.',
      'A file changed by mistake can be restored with git restore followed by its path. The version from the last commit replaces the working copy, and the changes made since are lost.',
    ],
  },
];

/** A question page as HTML: a title, a heading, one <p> per paragraph. */
export const questionHtml = (p: QuestionPage): string =>
  `<html><head><title>${p.title}</title></head><body><main><h1>${p.title}</h1>${p.paragraphs.map((x) => `<p>${x}</p>`).join('\n')}</main></body></html>`;
