/**
 * The layout's rules (docs/architecture.md): data flows one way,
 * main → server/ → (rest/ | graphql/) → live/ → sources/ → upstream/,
 * with http/, observe/, lib/, config.ts and errors.ts underneath (lib below observe below http).
 * `npm test` runs this: a circle or an import back up the layers fails the suite.
 */
const room = (name) => `^src/${name}/`;
const above = (...names) => `^src/(${names.join('|')})(/|\\.ts$)`;
const rule = (name, from, to, comment) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import circles hide which room depends on which.',
      from: {},
      to: { circular: true },
    },
    rule(
      'lib-is-the-floor',
      room('lib'),
      above('observe', 'http', 'upstream', 'sources', 'live', 'graphql', 'rest', 'server', 'sample', 'main', 'demo', 'config', 'errors'),
      'lib/ holds generic pieces that know nothing of satgate.',
    ),
    rule(
      'observe-below-http',
      room('observe'),
      above('http', 'upstream', 'sources', 'live', 'graphql', 'rest', 'server', 'sample', 'main', 'demo'),
      'observe/ is imported by every room; it imports none of them.',
    ),
    rule(
      'http-below-the-rooms',
      room('http'),
      above('upstream', 'sources', 'live', 'graphql', 'rest', 'server', 'sample', 'main', 'demo'),
      'http/ is HTTP vocabulary shared below the rooms.',
    ),
    rule(
      'shared-below-the-rooms',
      '^src/(config|errors)\\.ts$',
      above('observe', 'http', 'upstream', 'sources', 'live', 'graphql', 'rest', 'server', 'sample', 'main', 'demo'),
      'config.ts and errors.ts are what every layer shares.',
    ),
    rule(
      'upstream-knows-no-caller',
      room('upstream'),
      above('sources', 'live', 'graphql', 'rest', 'server', 'sample', 'main', 'demo'),
      'Nothing below upstream/ knows about GraphQL or the rooms that call it.',
    ),
    rule(
      'sources-below-live',
      room('sources'),
      above('live', 'graphql', 'rest', 'server', 'sample', 'main', 'demo'),
      'A source maps one data service onto the Hiro shapes.',
    ),
    rule(
      'live-below-graphql',
      room('live'),
      above('graphql', 'rest', 'server', 'sample', 'main', 'demo'),
      'Pollers and fan-out know no transport.',
    ),
    rule(
      'graphql-below-server',
      room('graphql'),
      above('rest', 'server', 'sample', 'main', 'demo'),
      'graphql/ never reaches up to the front door or across to rest/.',
    ),
    rule(
      'rest-below-server',
      room('rest'),
      above('graphql', 'server', 'sample', 'main', 'demo'),
      'rest/ never reaches up to the front door or across to graphql/.',
    ),
    rule(
      'server-below-main',
      room('server'),
      above('sample', 'main', 'demo'),
      'The front door is built by the process, never the other way.',
    ),
    rule(
      'sample-stands-apart',
      room('sample'),
      above('server', 'rest', 'graphql', 'live', 'sources', 'main', 'demo'),
      'The sample upstream plays the services; it shares only their types.',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
