/**
 * The layout rule: a file's path says where it runs. Checked by `npm run deps` (part of `npm test`);
 * tests/layout.test.ts shows a violation failing it.
 * - shared/ is used by two or more deployables, so it depends on none of them;
 * - the connection host (ECS) and each Lambda (functions/<name>/) never pull in one another's code;
 * - the simulated network (and its driver) is test and demo infrastructure: no deployable imports it,
 *   not even the host's tests, which the image's build context holds.
 */
const NOT_TESTS = '\\.test\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'shared-depends-on-no-deployable',
      severity: 'error',
      comment: 'shared/ holds only what two or more deployables use; it imports none of them.',
      from: { path: '^shared/', pathNot: NOT_TESTS },
      to: { path: '^(functions|connection-host|simulator|scripts|tests|bench|infra)/' },
    },
    {
      name: 'host-imports-no-lambda-code',
      severity: 'error',
      comment: 'The connection host runs on ECS; code that runs only in the Lambdas stays out of it.',
      from: { path: '^connection-host/', pathNot: NOT_TESTS },
      to: { path: '^(functions|scripts|tests|bench|infra)/' },
    },
    {
      name: 'host-imports-no-simulator',
      severity: 'error',
      comment:
        'The host image copies connection-host/ and shared/ only: the simulated driver lives in simulator/ and local mode injects it (scripts/local/local-driver.ts). Its tests too: they are copied into the image context.',
      from: { path: '^connection-host/' },
      to: { path: '^simulator/' },
    },
    {
      name: 'lambda-imports-no-host-or-simulator',
      severity: 'error',
      comment: 'A Lambda bundle holds its own folder and shared/ only: no host, simulator or test code.',
      from: { path: '^functions/', pathNot: NOT_TESTS },
      to: { path: '^(connection-host|simulator|scripts|tests|bench|infra)/' },
    },
    {
      name: 'lambdas-stay-apart',
      severity: 'error',
      comment: 'Each Lambda (functions/<name>/) is its own bundle; what two of them need belongs in shared/.',
      from: { path: '^functions/([^/]+)/', pathNot: NOT_TESTS },
      to: { path: '^functions/', pathNot: '^functions/$1/' },
    },
    {
      name: 'outbound-guard-stands-alone',
      severity: 'error',
      comment:
        "shared/outbound/ guards every request made on a user's behalf (webhooks, media, exports, knowledge, proxies): it builds on config and errors only, so any caller can use it without pulling in a domain.",
      from: { path: '^shared/outbound/' },
      to: { path: '^shared/', pathNot: '^shared/(outbound|config|http)/' },
    },
    {
      name: 'address-rules-only-through-the-guard',
      severity: 'error',
      comment:
        'Which addresses are private is judged by shared/outbound/guard.ts (assertAllowedAddress, guardedFetch, guardedLookup); a caller that checked addresses itself would skip the check on the address actually dialled.',
      from: { pathNot: '^shared/outbound/' },
      to: { path: '^shared/outbound/address\\.ts$' },
    },
    {
      name: 'stream-imports-no-webhooks',
      severity: 'error',
      comment:
        'The SSE feed and the webhooks are two ways out for the same events; what both show lives in shared/presentation/, so the feed needs nothing from shared/webhooks/.',
      from: { path: '^shared/stream/' },
      to: { path: '^shared/webhooks/' },
    },
    {
      name: 'presentation-belongs-to-no-channel',
      severity: 'error',
      comment:
        'shared/presentation/ is what the webhooks, the SSE feed and the history routes show alike: it imports none of them.',
      from: { path: '^shared/presentation/' },
      to: { path: '^(shared/(webhooks|stream)|functions)/' },
    },
    {
      name: 'templates-import-no-messages',
      severity: 'error',
      comment:
        'functions/api/templates/ stores templates; sending with one (render-template.ts) is the job of functions/api/messages/, which imports templates and not the other way round.',
      from: { path: '^functions/api/templates/' },
      to: { path: '^functions/api/messages/' },
    },
    {
      name: 'media-imports-no-messages',
      severity: 'error',
      comment:
        'functions/api/media/ stores files (uploads to send, Cloud API media ids); functions/api/messages/ sends them, so it imports media and not the other way round. The Cloud API error shape both use is functions/api/cloud/.',
      from: { path: '^functions/api/media/' },
      to: { path: '^functions/api/messages/' },
    },
    {
      name: 'sessions-import-no-messages',
      severity: 'error',
      comment:
        'functions/api/messages/ sends through a ready session (sessions/service.ts), so functions/api/sessions/ imports nothing from it; what both need of a stored file is in functions/api/media/.',
      from: { path: '^functions/api/sessions/' },
      to: { path: '^functions/api/messages/' },
    },
    {
      name: 'sessions-import-no-usage',
      severity: 'error',
      comment:
        'functions/api/usage/ counts per session and names one by sessions/identifier.ts, so functions/api/sessions/ imports nothing from it; the routes sharing the /api/sessions prefix are assembled in functions/api/sessions-prefix.ts.',
      from: { path: '^functions/api/sessions/' },
      to: { path: '^functions/api/usage/' },
    },
    {
      name: 'local-trigger-stays-local',
      severity: 'error',
      comment:
        'The local poller plays the Lambda SQS trigger (lambda-trigger.ts: messages as Lambda records) and its batching (combined-lanes.ts: lanes ready together in one call); only the local launcher does, so no deployable (nor its tests) imports them: the host hands its commands to the command handler as they are.',
      from: { path: '^(functions|connection-host|shared)/' },
      to: { path: '^scripts/local/(combined-lanes|lambda-trigger)\\.ts$' },
    },
    {
      name: 'no-unresolvable-imports',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // tests/e2e/typed-client: a program against a client generated at test time (tests/e2e/openapi.test.ts).
    exclude: { path: '(^|/)(node_modules|cdk\\.out|\\.data|tests/e2e/typed-client)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
