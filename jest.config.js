/**
 * One jest run for the whole repository: the global setup starts one embedded PostgreSQL and one nats-server
 * for the run, and each suite creates its own database on that server.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  testMatch: ['<rootDir>/{packages,services,gateway}/*/test/**/*.test.ts', '<rootDir>/gateway/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/test/harness/global-setup.js',
  globalTeardown: '<rootDir>/test/harness/global-teardown.js',
  reporters: ['default', '<rootDir>/test/harness/slowest-suites-reporter.js'],
  maxWorkers: 2,
  testTimeout: 60_000,
};
